import { Box, Flex, SkipNavLink } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner';
import { useCurrentUser } from '@/lib/auth';
import { useIsNavigating } from '../router';
import { RouteErrorBoundary } from '../routes/route-error';
import { Footer } from './footer';
import { Header } from './header';
import { ScrollRestoration } from './scroll-restoration';

/** A thin bar at the top while a route (or its lazy code) loads. */
function NavigationProgress() {
  if (!useIsNavigating()) return null;
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

const UnconfirmedAddressNotice = lazy(() => import('@/features/auth/components/unconfirmed-address-notice'));

/** A signed-in account whose address is not confirmed yet is told so on every page, with 'Resend'. */
function AddressNotice() {
  const { data: user } = useCurrentUser();
  if (!user || user.emailConfirmed) return null;
  return (
    <Suspense fallback={null}>
      <UnconfirmedAddressNotice email={user.email} />
    </Suspense>
  );
}

export function RootLayout() {
  return (
    <Flex direction="column" minH="100dvh">
      <SkipNavLink id="main">Skip to content</SkipNavLink>
      <NavigationProgress />
      <Header />
      <Flex as="main" id="main" tabIndex={-1} direction="column" flex="1" _focus={{ outline: 'none' }}>
        <AddressNotice />
        {/* A page that fails shows the error in the frame; one whose code is loading, a spinner
            (on the first visit: later navigations keep the current page meanwhile). */}
        <RouteErrorBoundary>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </Flex>
      <Footer />
      <ScrollRestoration />
    </Flex>
  );
}

/** The frame and a spinner, should the layout itself wait for code (AppRoutes' fallback). */
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
