import { Center, Text } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner';
import { useCurrentUser } from '@/lib/auth';
import { sessionMayExist } from '@/lib/supabase';
import { useIsNavigating } from './router';

/*
 * Route guards. A redirect waits while another navigation is under way: on
 * logout the app sets "no user" and navigates to /, and a lazy route can take a moment to load;
 * redirecting to /login meanwhile would fight that navigation.
 */

/** Logged-in routes: a spinner while the user loads, /login without one. */
export function RequireAuth() {
  const { data: user, isPending } = useCurrentUser();
  const location = useLocation();
  const navigating = useIsNavigating();

  if (isPending) return <PageSpinner label="Loading your account..." />;
  if (!user) {
    if (navigating) return <PageSpinner />;
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return <Outlet />;
}

function RedirectingToDashboard() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate('/dashboard', { replace: true });
  }, [navigate]);
  return (
    <Center minHeight="50vh" role="status">
      <Text color="fg.muted">Redirecting...</Text>
    </Center>
  );
}

/** /admin: logged-in admins only; anyone else signed in is sent to /dashboard. */
export function RequireAdmin() {
  const { data: user } = useCurrentUser();
  if (!user?.isAdmin) return <RedirectingToDashboard />;
  return <Outlet />;
}

/**
 * /dashboard: an account that has not finished or skipped onboarding goes to /onboarding. Sign-up
 * and the first Google sign-in land on /dashboard, so this is where new accounts are sent there.
 */
export function RequireOnboarded() {
  const { data: user } = useCurrentUser();
  if (user && !user.onboardingCompleted) return <Navigate to="/onboarding" replace />;
  return <Outlet />;
}

/** Pages for visitors (/, /login, /sign-up, /forgot-password): a signed-in user goes to `to`. */
export function RedirectIfSignedIn({ to, children }: { to: string; children?: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  const navigating = useIsNavigating();
  const signingOut = (useLocation().state as { signedOut?: boolean } | null)?.signedOut === true;
  // Visitors see the page at once; a browser holding a session waits to learn who it is.
  if (isPending && sessionMayExist()) return <PageSpinner />;
  if (user && !navigating && !signingOut) return <Navigate to={to} replace />;
  return children ?? <Outlet />;
}
