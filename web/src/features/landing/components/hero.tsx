import { Box, Button, Container, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { IconArrowDown, IconCheck, IconPlane, IconTrendingDown } from '@/components/ui/icons';
import { Link as RouterLink } from 'react-router';

/** An example alert, drawn in HTML so it stays sharp and readable at any width. */
function ExampleAlert() {
  return (
    <Box
      as="figure"
      aria-label="Example price-drop alert"
      bg="bg"
      color="fg"
      borderRadius="2xl"
      boxShadow="2xl"
      p={{ base: '5', md: '6' }}
      maxW="sm"
      w="full"
      mx={{ base: 'auto', lg: '0' }}
    >
      <HStack justify="space-between" mb="4">
        <HStack gap="2" color="fg.muted" fontSize="sm">
          <IconPlane aria-hidden="true" />
          <Text>Delta DL 1184 · Oct 14</Text>
        </HStack>
        <Text
          as="span"
          fontSize="xs"
          fontWeight="semibold"
          px="2"
          py="1"
          borderRadius="full"
          bg="green.100"
          color="green.800"
        >
          Price drop found
        </Text>
      </HStack>
      <Text fontSize="2xl" fontWeight="bold" letterSpacing="tight">
        JFK → LAX
      </Text>
      <SimpleGrid columns={2} gap="4" mt="5">
        <Box>
          <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
            You paid
          </Text>
          <Text fontSize="xl" fontWeight="semibold" textDecoration="line-through" color="fg.muted">
            $412.00
          </Text>
        </Box>
        <Box>
          <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
            Price now
          </Text>
          <Text fontSize="xl" fontWeight="semibold">
            $318.00
          </Text>
        </Box>
      </SimpleGrid>
      <Flex mt="5" p="3" borderRadius="lg" bg="green.50" color="green.800" align="center" gap="3" fontWeight="semibold">
        <IconTrendingDown aria-hidden="true" />
        <Text>You get $94.00 back as airline credit</Text>
      </Flex>
      <Text as="figcaption" fontSize="xs" color="fg.muted" mt="3">
        An example of the alert FareBack sends.
      </Text>
    </Box>
  );
}

export function Hero() {
  return (
    <Box
      as="section"
      aria-labelledby="hero-title"
      bgGradient="to-br"
      gradientFrom="brand.900"
      gradientTo="brand.700"
      color="white"
      overflow="hidden"
    >
      <Container maxW="6xl" py={{ base: '14', md: '24' }}>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap={{ base: '10', lg: '16' }} alignItems="center">
          <Stack gap="6">
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
              Fares change after you book. FareBack watches the flights you&apos;ve already booked and, when the price
              drops, rebooks you at the lower fare, so the difference comes back to you as airline credit.
            </Text>
            <Stack as="ul" listStyleType="none" gap="2" color="brand.50">
              {['Same flight, same seat, lower price', 'Free for up to 5 flights', 'No savings, no commission'].map(
                (point) => (
                  <HStack as="li" key={point} gap="2">
                    <Box color="green.300" aria-hidden="true">
                      <IconCheck />
                    </Box>
                    <Text>{point}</Text>
                  </HStack>
                ),
              )}
            </Stack>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3" pt="2">
              <Button asChild size="xl" bg="white" color="brand.800" _hover={{ bg: 'brand.50' }}>
                <RouterLink to="/sign-up">Start saving for free</RouterLink>
              </Button>
              <Button
                asChild
                size="xl"
                variant="outline"
                color="white"
                borderColor="whiteAlpha.700"
                _hover={{ bg: 'whiteAlpha.200' }}
              >
                <RouterLink to={{ pathname: '/', hash: '#how-it-works' }}>
                  See how it works <IconArrowDown aria-hidden="true" />
                </RouterLink>
              </Button>
            </Stack>
          </Stack>
          <ExampleAlert />
        </SimpleGrid>
      </Container>
    </Box>
  );
}
