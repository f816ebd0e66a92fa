import { Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

export function NotFoundPage() {
  return (
    <Container maxW="xl" py={{ base: '16', md: '24' }}>
      <title>Page Not Found · FareBack</title>
      <Stack gap="4" align="center" textAlign="center">
        <Text fontSize="6xl" fontWeight="bold" color="brand.solid" lineHeight="1">
          404
        </Text>
        <Heading as="h1" size="2xl">
          Page Not Found
        </Heading>
        <Text color="fg.muted">Did you forget to add the page to the router?</Text>
        <Button asChild mt="4">
          <RouterLink to="/">Back to home</RouterLink>
        </Button>
      </Stack>
    </Container>
  );
}
