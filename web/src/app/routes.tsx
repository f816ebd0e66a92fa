import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';
import { RootLayout, RootLayoutFallback } from './layout/root-layout';
import { NotFoundPage } from './routes/not-found';
import type { SiteNavHandle } from './layout/site-nav';
import { RouteError } from './routes/route-error';
import { loadQueryRuntime } from '@/lib/query-runtime-loader';
import { loadSlotRecipes } from './theme';

/**
 * A lazy route whose page may use TanStack Query and Chakra's slot recipes, which the landing
 * page does without (lib/query-runtime-loader.ts, theme.ts): both load with the page's code.
 */
function withAppRuntime(load: () => Promise<{ Component: ComponentType }>) {
  return async () => {
    const [route] = await Promise.all([load(), loadSlotRecipes(), loadQueryRuntime()]);
    return route;
  };
}

/** Public pages show the site navigation and footer (./layout/site-nav.tsx). */
const landingNav: SiteNavHandle = { siteNav: ['home', 'pricing', 'faq', 'contact'] };
const contactNav: SiteNavHandle = { siteNav: ['home', 'pricing', 'contact'] };

/*
 * Every route of spec section 2. Pages load lazily, so the landing route ships without the
 * dashboard's or admin's code; guards and the layout are in the main bundle.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: RootLayoutFallback,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            element: <RedirectIfSignedIn to="/dashboard" />,
            children: [
              {
                index: true,
                handle: landingNav,
                // The landing page uses no slot recipes: its first visit loads none.
                lazy: async () => ({
                  Component: (await import('@/features/landing/landing-page')).LandingPage,
                }),
              },
              {
                path: 'login',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/auth/pages/login-page')).LoginPage,
                })),
              },
              {
                path: 'sign-up',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/auth/pages/sign-up-page')).SignUpPage,
                })),
              },
            ],
          },
          {
            element: <RedirectIfSignedIn to="/" />,
            children: [
              {
                path: 'forgot-password',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/auth/pages/forgot-password-page')).ForgotPasswordPage,
                })),
              },
            ],
          },
          {
            // Sends a signed-in user to /dashboard itself, after its missing-token check.
            path: 'reset-password',
            lazy: withAppRuntime(async () => ({
              Component: (await import('@/features/auth/pages/reset-password-page')).ResetPasswordPage,
            })),
          },
          {
            path: 'contact',
            handle: contactNav,
            lazy: withAppRuntime(async () => ({
              Component: (await import('@/features/contact/contact-page')).ContactPage,
            })),
          },
          {
            path: 'privacy',
            handle: landingNav,
            lazy: withAppRuntime(async () => ({
              Component: (await import('@/features/landing/info-pages')).PrivacyPage,
            })),
          },
          {
            path: 'terms',
            handle: landingNav,
            lazy: withAppRuntime(async () => ({
              Component: (await import('@/features/landing/info-pages')).TermsPage,
            })),
          },
          {
            path: 'help',
            handle: landingNav,
            lazy: withAppRuntime(async () => ({
              Component: (await import('@/features/landing/info-pages')).HelpPage,
            })),
          },
          { path: 'auth', element: <Navigate to="/login" replace /> },
          {
            element: <RequireAuth />,
            children: [
              {
                path: 'dashboard',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('./routes/dashboard')).DashboardRoute,
                })),
              },
              {
                path: 'account',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/account/account-page')).AccountPage,
                })),
              },
              {
                path: 'connect-email',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/email/connect-email-page')).ConnectEmailPage,
                })),
              },
              {
                path: 'premium-checkout',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/subscription/premium-checkout-page')).PremiumCheckoutPage,
                })),
              },
              {
                path: 'onboarding',
                lazy: withAppRuntime(async () => ({
                  Component: (await import('@/features/onboarding/onboarding-page')).OnboardingPage,
                })),
              },
              {
                element: <RequireAdmin />,
                children: [
                  {
                    path: 'admin',
                    lazy: withAppRuntime(async () => ({
                      Component: (await import('@/features/admin/admin-page')).AdminPage,
                    })),
                  },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
