// Google sign-in through the local account chooser (google-chooser.ts): GET /authorize shows it,
// POST /callback signs the chosen account in or creates it, never joining an existing account.
import { Hono } from 'hono';
import type { AuthContext, Env, Json } from '../context.ts';
import { AuthError } from '../errors.ts';
import { renderGoogleChooser } from '../google-chooser.ts';
import { OAuthStates } from '../oauth-state.ts';
import { mergeMetadata, requireValidEmail } from '../request.ts';
import {
  findIdentity,
  findUserByEmail,
  findUserById,
  insertUser,
  jsonb,
  sha256Hex,
  usersWithProvider,
} from '../store.ts';

/** A stable 21-digit stand-in for a Google account's `sub`, derived from the address. */
function localGoogleSub(email: string): string {
  const digits = BigInt(`0x${sha256Hex(`google:${email}`).slice(0, 24)}`)
    .toString()
    .padStart(21, '1');
  return `1${digits.slice(0, 20)}`;
}

/** The redirect target with GoTrue's error parameters in the fragment, where the web app reads them. */
function errorRedirect(target: string, error: string, errorCode: string, description: string): string {
  const fragment = new URLSearchParams({ error, error_code: errorCode, error_description: description });
  return `${target.split('#')[0]}#${fragment.toString()}`;
}

export function googleRoutes(ctx: AuthContext): Hono<Env> {
  const { deps, sql, siteUrl, clientInfo, allowedRedirect, issueSession } = ctx;
  const routes = new Hono<Env>();
  const oauthStates = new OAuthStates(undefined, deps.now);

  routes.get('/authorize', async (c) => {
    const provider = c.req.query('provider');
    if (provider !== 'google')
      throw new AuthError(400, 'provider_disabled', 'Unsupported provider: provider is not enabled');
    const redirectTo = allowedRedirect(c.req.query('redirect_to')).split('#')[0] ?? siteUrl;
    const accounts = await usersWithProvider(sql, 'google');
    c.header('cache-control', 'no-store');
    return c.html(
      renderGoogleChooser({
        accounts,
        state: oauthStates.issue(redirectTo),
        callbackPath: '/auth/v1/callback',
        cancelUrl: errorRedirect(redirectTo, 'access_denied', 'access_denied', 'The user cancelled the Google sign-in'),
      }),
    );
  });

  routes.post('/callback', async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new AuthError(400, 'validation_failed', 'Could not parse request body as form data');
    }
    const field = (name: string): string | undefined => {
      const value = form[name];
      return typeof value === 'string' ? value : undefined;
    };
    c.header('cache-control', 'no-store');
    // Only a state /authorize issued, unexpired and unused; the redirect target is the one it was
    // issued for, whatever the form says. Without one there is no trusted target: the site.
    const pending = oauthStates.consume(field('state'));
    if (!pending) {
      return c.redirect(
        errorRedirect(siteUrl, 'invalid_request', 'bad_oauth_state', 'OAuth state is invalid or has expired'),
        302,
      );
    }
    const redirectTo = pending.redirectTo;
    const email = requireValidEmail(field('email'));
    const name = field('name')?.trim() || email.split('@')[0] || email;
    const sub = localGoogleSub(email);
    const identityData: Json = {
      iss: 'https://accounts.google.com',
      sub,
      provider_id: sub,
      email,
      email_verified: true,
      phone_verified: false,
      full_name: name,
      name,
    };
    const client = clientInfo(c);
    const outcome = await sql.begin(async (tx) => {
      const identity = await findIdentity(tx, 'google', sub);
      if (identity) {
        // A returning Google user; the user's metadata is refreshed from the provider each time.
        const existing = await findUserById(tx, identity.user_id, true);
        if (!existing) return { kind: 'no_user' as const };
        await tx`update auth.identities set identity_data = ${jsonb(tx, identityData)},
          last_sign_in_at = now(), updated_at = now() where id = ${identity.id}`;
        const userMetadata = mergeMetadata(existing.raw_user_meta_data ?? {}, identityData);
        await tx`update auth.users set raw_user_meta_data = ${jsonb(tx, userMetadata)}, updated_at = now()
          where id = ${existing.id}`;
        return { kind: 'session' as const, session: await issueSession(tx, existing.id, 'oauth', client) };
      }
      // The chooser proves nothing about the address (anyone can type any email), so it never
      // joins an account that exists already: that would be signing in as its owner.
      if (await findUserByEmail(tx, email, true)) return { kind: 'taken' as const };
      const userId = await insertUser(
        tx,
        {
          email,
          passwordHash: null,
          emailConfirmed: true,
          userMetadata: identityData,
          appMetadata: { provider: 'google', providers: ['google'] },
        },
        { provider: 'google', providerId: sub, identityData },
      );
      return { kind: 'session' as const, session: await issueSession(tx, userId, 'oauth', client) };
    });
    if (outcome.kind === 'taken') {
      return c.redirect(
        errorRedirect(
          redirectTo,
          'access_denied',
          'email_exists',
          'An account with this email address already exists. Sign in with its password.',
        ),
        302,
      );
    }
    if (outcome.kind === 'no_user') {
      return c.redirect(errorRedirect(redirectTo, 'server_error', 'user_not_found', 'User not found'), 302);
    }
    const { session } = outcome;
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type: 'signup',
    });
    return c.redirect(`${redirectTo}#${fragment.toString()}`, 302);
  });

  return routes;
}
