import { Box, Button, Container, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuInbox, LuPiggyBank, LuTrendingDown } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';

const steps: { icon: IconType; title: string; text: string }[] = [
  {
    icon: LuInbox,
    title: 'Connect your inbox',
    text: 'We find your flight confirmations, or you add a booking by hand.',
  },
  {
    icon: LuTrendingDown,
    title: 'We watch the price',
    text: 'FareBack checks your itinerary around the clock for price drops.',
  },
  {
    icon: LuPiggyBank,
    title: 'You keep the difference',
    text: 'Rebook at the lower fare and the savings come back as airline credit.',
  },
];

export function LandingPage() {
  return (
    <>
      <title>FareBack · Airlines Owe You Money</title>
      <Box
        as="section"
        aria-labelledby="hero-title"
        bgGradient="to-br"
        gradientFrom="brand.800"
        gradientTo="brand.600"
        color="white"
      >
        <Container maxW="6xl" py={{ base: '16', md: '28' }}>
          <Stack gap="6" maxW="3xl">
            <Text textTransform="uppercase" letterSpacing="wider" fontWeight="semibold" fontSize="sm" color="brand.100">
              Flight price-drop monitoring
            </Text>
            <Heading
              as="h1"
              id="hero-title"
              fontSize={{ base: '4xl', md: '6xl' }}
              lineHeight="1.05"
              letterSpacing="tight"
            >
              Airlines Owe You Money
            </Heading>
            <Text fontSize={{ base: 'lg', md: 'xl' }} color="brand.50">
              Fares drop after you book. FareBack watches the flights you&apos;ve already booked and rebooks at the
              lower price, so you keep the difference as airline credit.
            </Text>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3" pt="2">
              <Button asChild size="xl" bg="white" color="brand.700" _hover={{ bg: 'brand.50' }}>
                <RouterLink to="/sign-up">Sign up</RouterLink>
              </Button>
              <Button
                asChild
                size="xl"
                variant="outline"
                color="white"
                borderColor="whiteAlpha.700"
                _hover={{ bg: 'whiteAlpha.200' }}
              >
                <RouterLink to="/login">Log in</RouterLink>
              </Button>
            </Stack>
          </Stack>
        </Container>
      </Box>

      <Container as="section" aria-labelledby="how-title" maxW="6xl" py={{ base: '12', md: '20' }}>
        <Heading as="h2" id="how-title" size="2xl" mb="8" letterSpacing="tight">
          How it works
        </Heading>
        <SimpleGrid as="ol" columns={{ base: 1, md: 3 }} gap="6" listStyleType="none">
          {steps.map(({ icon: Icon, title, text }) => (
            <Stack as="li" key={title} gap="3" p="6" borderWidth="1px" borderRadius="xl" bg="bg">
              <Box
                display="inline-flex"
                alignItems="center"
                justifyContent="center"
                boxSize="12"
                borderRadius="lg"
                bg="brand.subtle"
                color="brand.fg"
                fontSize="2xl"
                aria-hidden="true"
              >
                <Icon />
              </Box>
              <Heading as="h3" size="md">
                {title}
              </Heading>
              <Text color="fg.muted">{text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}
