import { isValidElement, lazy, Suspense, useEffect, useMemo, type ComponentType } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteMatch, type RouteObject } from 'react-router';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth, RequireOnboarded } from './guards';
import { RootLayout, RootLayoutFallback } from './layout/root-layout';
import { NotFoundPage } from './routes/not-found';
import { SiteNavContext, siteNavLinks, type SiteNavHandle } from './layout/site-nav';
import { RouteErrorBoundary } from './routes/route-error';
import { loadQueryRuntime } from '@/lib/query-runtime-loader';
import { loadSlotRecipes } from './theme';

/** A lazily loaded page whose code can be asked for before it renders. */
type Page = ComponentType & { preload: () => Promise<unknown> };

/**
 * A lazily loaded page: `name` of the module `load` imports. Unless `landing`, the page may use
 * TanStack Query and Chakra's slot recipes, which the landing page does without
 * (lib/query-runtime-loader.ts, theme.ts): both load with the page's code.
 */
function page<M extends Record<K, ComponentType>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  { landing = false } = {},
): Page {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= Promise.all([load(), ...(landing ? [] : [loadSlotRecipes(), loadQueryRuntime()])]).then(
      ([module]) => ({ default: module[name] }),
    ));
  return Object.assign(lazy(preload), { preload });
}

function isPage(type: unknown): type is Page {
  return typeof (type as Partial<Page> | null)?.preload === 'function';
}

/** Loads the code of every page among `matches` (with what each needs: see page()). */
function preloadPages(matches: RouteMatch[] | null): Promise<unknown> {
  return Promise.all(
    (matches ?? []).map((match) => {
      const type: unknown = isValidElement(match.route.element) ? match.route.element.type : null;
      return isPage(type) ? type.preload() : null;
    }),
  );
}

// The landing page uses no slot recipes: its first visit loads none.
const LandingPage = page(() => import('@/features/landing/landing-page'), 'LandingPage', { landing: true });
const LoginPage = page(() => import('@/features/auth/pages/login-page'), 'LoginPage');
const SignUpPage = page(() => import('@/features/auth/pages/sign-up-page'), 'SignUpPage');
const ForgotPasswordPage = page(() => import('@/features/auth/pages/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('@/features/auth/pages/reset-password-page'), 'ResetPasswordPage');
const ConfirmEmailPage = page(() => import('@/features/auth/pages/confirm-email-page'), 'ConfirmEmailPage');
const UnsubscribeRoute = page(() => import('./routes/unsubscribe'), 'UnsubscribeRoute');
const ContactPage = page(() => import('@/features/contact/contact-page'), 'ContactPage');
const PrivacyPage = page(() => import('@/features/landing/info-pages'), 'PrivacyPage');
const TermsPage = page(() => import('@/features/landing/info-pages'), 'TermsPage');
const HelpPage = page(() => import('@/features/landing/info-pages'), 'HelpPage');
const DashboardRoute = page(() => import('./routes/dashboard'), 'DashboardRoute');
const AccountRoute = page(() => import('./routes/account'), 'AccountRoute');
const ConnectEmailRoute = page(() => import('./routes/connect-email'), 'ConnectEmailRoute');
const PremiumCheckoutPage = page(() => import('@/features/subscription/premium-checkout-page'), 'PremiumCheckoutPage');
const OnboardingRoute = page(() => import('./routes/onboarding'), 'OnboardingRoute');
const AdminPage = page(() => import('@/features/admin/admin-page'), 'AdminPage');

/** Public pages show the site navigation and footer (./layout/site-nav.tsx). */
const landingNav: SiteNavHandle = { siteNav: ['home', 'pricing', 'faq', 'contact'] };
const contactNav: SiteNavHandle = { siteNav: ['home', 'pricing', 'contact'] };

/*
 * Every route of the app. Pages load lazily, so the landing route ships without the
 * dashboard's or admin's code; guards and the layout are in the main bundle. A route's
 * `handle` says which site links its page shows.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RedirectIfSignedIn to="/dashboard" />,
        children: [
          {
            index: true,
            handle: landingNav,
            element: <LandingPage />,
          },
          {
            path: 'login',
            element: <LoginPage />,
          },
          {
            path: 'sign-up',
            element: <SignUpPage />,
          },
        ],
      },
      {
        element: <RedirectIfSignedIn to="/" />,
        children: [
          {
            path: 'forgot-password',
            element: <ForgotPasswordPage />,
          },
        ],
      },
      {
        // Sends a signed-in user to /dashboard itself, after its missing-token check.
        path: 'reset-password',
        element: <ResetPasswordPage />,
      },
      {
        // the link in the address confirmation email; signed in or not
        path: 'confirm-email',
        element: <ConfirmEmailPage />,
      },
      {
        // the unsubscribe link in notification emails; signed in or not
        path: 'unsubscribe',
        element: <UnsubscribeRoute />,
      },
      {
        path: 'contact',
        handle: contactNav,
        element: <ContactPage />,
      },
      {
        path: 'privacy',
        handle: landingNav,
        element: <PrivacyPage />,
      },
      {
        path: 'terms',
        handle: landingNav,
        element: <TermsPage />,
      },
      {
        path: 'help',
        handle: landingNav,
        element: <HelpPage />,
      },
      { path: 'auth', element: <Navigate to="/login" replace /> },
      {
        element: <RequireAuth />,
        children: [
          {
            // a new account goes to /onboarding until it has finished or skipped it
            element: <RequireOnboarded />,
            children: [
              {
                path: 'dashboard',
                element: <DashboardRoute />,
              },
            ],
          },
          {
            path: 'account',
            element: <AccountRoute />,
          },
          {
            path: 'connect-email',
            element: <ConnectEmailRoute />,
          },
          {
            path: 'premium-checkout',
            element: <PremiumCheckoutPage />,
          },
          {
            path: 'onboarding',
            element: <OnboardingRoute />,
          },
          {
            element: <RequireAdmin />,
            children: [
              {
                path: 'admin',
                element: <AdminPage />,
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * Loads the code of the pages at `pathname`. A prerendered page is rendered (entry-server.tsx)
 * and hydrated (main.tsx) after this, so both start from the same loaded code and neither shows
 * a Suspense fallback.
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  return preloadPages(matchRoutes(routes, pathname));
}

/** Where a visitor goes next from a sign-in page. */
const NEXT_PAGES: Readonly<Record<string, readonly string[]>> = {
  '/login': ['/dashboard', '/onboarding'],
  '/sign-up': ['/onboarding'],
};

/**
 * The routes at the current location. RootLayout shows the page inside a Suspense boundary and
 * an error boundary of its own; these outer ones cover the layout itself.
 */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes, location);
  const matches = useMemo(() => matchRoutes(routes, location), [location]);
  const siteNav = useMemo(() => siteNavLinks(matches), [matches]);
  // The matched page's code (and the app runtime) starts loading at once, as the data router's
  // `lazy` did, not when a guard lets the page render: RequireAuth waits for the current user,
  // whom only the runtime can fetch.
  useEffect(() => {
    preloadPages(matches).catch(() => undefined);
  }, [matches]);
  // The page a visitor lands on after signing in or up loads while they type, so the form gives
  // way to it at once rather than staying on screen while its code arrives.
  const nextPaths = NEXT_PAGES[location.pathname];
  useEffect(() => {
    for (const path of nextPaths ?? []) preloadRoute(path).catch(() => undefined);
  }, [nextPaths]);
  return (
    <RouteErrorBoundary>
      <SiteNavContext value={siteNav}>
        <Suspense fallback={<RootLayoutFallback />}>{element}</Suspense>
      </SiteNavContext>
    </RouteErrorBoundary>
  );
}
