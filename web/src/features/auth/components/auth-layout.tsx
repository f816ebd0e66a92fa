import { Box, Card, Center, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface AuthLayoutProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card the sign-in, sign-up and password pages share. */
export function AuthLayout({ title, description, children, footer }: AuthLayoutProps) {
  return (
    <Center
      flex="1"
      px={{ base: '4', md: '6' }}
      py={{ base: '8', md: '16' }}
      bgGradient="to-b"
      gradientFrom="brand.50"
      gradientTo="bg"
    >
      <title>{`${title} · FareBack`}</title>
      <Card.Root width="full" maxW="md" variant="elevated" borderRadius="xl">
        <Card.Header gap="2" pt={{ base: '6', md: '8' }} px={{ base: '5', md: '8' }}>
          <Heading as="h1" size="2xl" letterSpacing="tight">
            {title}
          </Heading>
          {description && <Text color="fg.muted">{description}</Text>}
        </Card.Header>
        <Card.Body px={{ base: '5', md: '8' }}>
          <Stack gap="6">{children}</Stack>
        </Card.Body>
        {footer && (
          <Card.Footer justifyContent="center" pb={{ base: '6', md: '8' }} px={{ base: '5', md: '8' }}>
            <Box textAlign="center" color="fg.muted" fontSize="sm" width="full">
              {footer}
            </Box>
          </Card.Footer>
        )}
      </Card.Root>
    </Center>
  );
}
