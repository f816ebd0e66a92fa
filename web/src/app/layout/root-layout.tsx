import { Box, Flex, SkipNavLink } from '@chakra-ui/react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner';
import { Footer } from './footer';
import { Header } from './header';

/** A thin bar at the top while a route (or its lazy code) loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <Box
      position="fixed"
      top="0"
      insetX="0"
      h="0.5"
      zIndex="toast"
      bg="brand.solid"
      animation="pulse 1s ease-in-out infinite"
      role="progressbar"
      aria-label="Loading page"
    />
  );
}

export function RootLayout() {
  return (
    <Flex direction="column" minH="100dvh">
      <SkipNavLink id="main">Skip to content</SkipNavLink>
      <NavigationProgress />
      <Header />
      <Flex as="main" id="main" tabIndex={-1} direction="column" flex="1" _focus={{ outline: 'none' }}>
        <Outlet />
      </Flex>
      <Footer />
      <ScrollRestoration />
    </Flex>
  );
}

/** What the first load shows while the matched route's code arrives: the frame and a spinner. */
export function RootLayoutFallback() {
  return (
    <Flex direction="column" minH="100dvh">
      <Header />
      <Flex as="main" id="main" direction="column" flex="1">
        <PageSpinner />
      </Flex>
      <Footer />
    </Flex>
  );
}
