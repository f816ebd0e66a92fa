import { Box, Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { Faq } from './components/faq';
import { Hero } from './components/hero';
import { HowItWorks, SupportedAirlines, ThreeSteps } from './components/how-it-works';
import { Pricing } from './components/pricing';
import { Testimonials } from './components/testimonials';

/**
 * Arriving at /#pricing or /#faq from another page: the router's scroll restoration may run
 * before this lazily loaded page has painted, so scroll to the section once it exists.
 */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const section = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!section) return;
    section.scrollIntoView({ block: 'start' });
    section.focus({ preventScroll: true });
  }, [hash]);
}

export function LandingPage() {
  useScrollToHash();
  return (
    <>
      <title>FareBack · Airlines Owe You Money</title>
      <Hero />
      <HowItWorks />
      <SupportedAirlines />
      <ThreeSteps />
      <Pricing />
      <Testimonials />
      <Faq />
      <Box as="section" aria-labelledby="cta-title" bg="brand.800" color="white">
        <Container maxW="4xl" py={{ base: '14', md: '20' }}>
          <Stack gap="5" align="center" textAlign="center">
            <Heading as="h2" id="cta-title" fontSize={{ base: '3xl', md: '4xl' }} letterSpacing="tight">
              Your next flight could pay you back
            </Heading>
            <Text fontSize="lg" color="brand.50" maxW="2xl">
              Add a booking in under a minute. We&apos;ll tell you the moment the price drops.
            </Text>
            <Button asChild size="xl" bg="white" color="brand.800" _hover={{ bg: 'brand.50' }}>
              <RouterLink to="/sign-up">Create your free account</RouterLink>
            </Button>
          </Stack>
        </Container>
      </Box>
    </>
  );
}
