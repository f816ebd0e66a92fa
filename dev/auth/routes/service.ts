// The service's own endpoints: health, the settings supabase-js reads (which sign-ins exist,
// whether sign-up is open) and the public keys the api verifies tokens with.
import { Hono } from 'hono';
import type { AuthContext, Env } from '../context.ts';
import { publicJwks } from '../keys.ts';

export function serviceRoutes(ctx: AuthContext): Hono<Env> {
  const { deps, signingKey } = ctx;
  const routes = new Hono<Env>();

  routes.get('/health', (c) =>
    c.json({ version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }),
  );

  routes.get('/settings', (c) =>
    c.json({
      external: {
        anonymous_users: false,
        apple: false,
        azure: false,
        bitbucket: false,
        discord: false,
        facebook: false,
        figma: false,
        github: false,
        gitlab: false,
        google: true,
        keycloak: false,
        kakao: false,
        linkedin_oidc: false,
        notion: false,
        slack_oidc: false,
        spotify: false,
        twitch: false,
        twitter: false,
        workos: false,
        zoom: false,
        email: true,
        phone: false,
      },
      disable_signup: !deps.enableSignup,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );

  routes.get('/.well-known/jwks.json', (c) => {
    c.header('cache-control', 'public, max-age=600');
    return c.json(publicJwks(signingKey));
  });

  return routes;
}
