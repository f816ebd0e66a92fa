// Links mailed to the traveller: password recovery (POST /recover mails it) and POST /verify,
// which spends a recovery link or an email change link and starts a session.
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { type AuthContext, EMAIL_MIN_INTERVAL_SECONDS, type Env } from '../context.ts';
import { AuthError } from '../errors.ts';
import { readJson, requireValidEmail, stringField } from '../request.ts';
import { findUserByEmail, findUserByRecoveryTokenHash, sha256Hex } from '../store.ts';

/** GOTRUE_MAILER_OTP_EXP default: recovery and email change links live one hour. */
const RECOVERY_TOKEN_SECONDS = 3600;
const VERIFY_TYPES = new Set(['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email']);

export function recoveryRoutes(ctx: AuthContext): Hono<Env> {
  const { deps, sql, siteUrl, inBackground, clientInfo, allowedRedirect, issueSession } = ctx;
  const routes = new Hono<Env>();

  routes.post('/recover', async (c) => {
    const body = await readJson(c);
    const rawEmail = stringField(body, 'email');
    if (!rawEmail) throw new AuthError(422, 'validation_failed', 'Password recovery requires an email');
    const email = requireValidEmail(rawEmail);
    const redirectTo = allowedRedirect(c.req.query('redirect_to') ?? stringField(body, 'redirect_to'));
    // The emailed value is the secret; only its hash is stored, so a database dump cannot be
    // replayed as a recovery link.
    const token = randomBytes(28).toString('hex');
    const outcome = await sql.begin(async (tx) => {
      const user = await findUserByEmail(tx, email, true);
      if (!user) return { kind: 'no_user' as const };
      if (user.recovery_sent_at) {
        const elapsed = (Date.now() - user.recovery_sent_at.getTime()) / 1000;
        if (elapsed < EMAIL_MIN_INTERVAL_SECONDS) {
          return { kind: 'too_soon' as const, wait: Math.max(1, Math.ceil(EMAIL_MIN_INTERVAL_SECONDS - elapsed)) };
        }
      }
      await tx`update auth.users set recovery_token = ${sha256Hex(token)}, recovery_sent_at = now(), updated_at = now()
        where id = ${user.id}`;
      return { kind: 'send' as const, email: user.email ?? email };
    });
    if (outcome.kind === 'too_soon') {
      throw new AuthError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${outcome.wait} seconds.`,
      );
    }
    if (outcome.kind === 'send') {
      // Sent after the answer: how long SMTP takes must not tell whether the address has an account.
      const to = outcome.email;
      inBackground(
        () => deps.mailer.sendRecovery(to, { SiteURL: siteUrl, TokenHash: token, Email: to, RedirectTo: redirectTo }),
        'recovery email',
      );
    }
    return c.json({});
  });

  routes.post('/verify', async (c) => {
    const body = await readJson(c);
    const type = stringField(body, 'type') ?? '';
    const tokenHash = stringField(body, 'token_hash');
    if (!VERIFY_TYPES.has(type)) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
    if (!tokenHash) throw new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash');
    const client = clientInfo(c);
    if (type === 'email_change') {
      const changed = await sql.begin(async (tx) => {
        const [user] = await tx<{ id: string; email_change: string; email_change_sent_at: Date | null }[]>`
          select id, email_change, email_change_sent_at from auth.users
           where email_change_token_new = ${sha256Hex(tokenHash)} and email_change_token_new <> ''
             and email_change <> '' for update`;
        const sentAt = user?.email_change_sent_at?.getTime() ?? 0;
        if (!user || Date.now() - sentAt > RECOVERY_TOKEN_SECONDS * 1000) return null;
        // someone may have taken the address since the link was sent
        if (await findUserByEmail(tx, user.email_change)) return null;
        await tx`update auth.users set email = ${user.email_change}, email_change = '', email_change_token_new = '',
          email_confirmed_at = now(), updated_at = now() where id = ${user.id}`;
        await tx`update auth.identities
            set identity_data = identity_data || jsonb_build_object('email', ${user.email_change}::text), updated_at = now()
          where user_id = ${user.id} and provider = 'email'`;
        return issueSession(tx, user.id, 'otp', client);
      });
      if (!changed) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
      return c.json(changed);
    }
    const session = await sql.begin(async (tx) => {
      // Only recovery links are ever issued here, so any other type has no valid token.
      const user = type === 'recovery' ? await findUserByRecoveryTokenHash(tx, sha256Hex(tokenHash)) : undefined;
      const sentAt = user?.recovery_sent_at?.getTime() ?? 0;
      if (!user || Date.now() - sentAt > RECOVERY_TOKEN_SECONDS * 1000) return null;
      await tx`update auth.users set recovery_token = '',
        email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = ${user.id}`;
      return issueSession(tx, user.id, 'recovery', client);
    });
    if (!session) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    return c.json(session);
  });

  return routes;
}
