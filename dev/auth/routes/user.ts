// The signed-in user: reading and changing their account (metadata, password with GoTrue's secure
// password change, email change by a link to the new address) and the reauthentication code.
import { Hono } from 'hono';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { type AuthContext, EMAIL_MIN_INTERVAL_SECONDS, type Env } from '../context.ts';
import { AuthError } from '../errors.ts';
import { BCRYPT_COST, checkPasswordStrength } from '../passwords.ts';
import { mergeMetadata, objectField, readJson, requireValidEmail, stringField } from '../request.ts';
import {
  deleteSessions,
  findUserByEmail,
  identitiesOf,
  jsonb,
  loadUserJson,
  sha256Hex,
  userJson,
  type UserRow,
} from '../store.ts';

/** GOTRUE_MAILER_OTP_EXP default: a reauthentication code lives one hour. */
const REAUTHENTICATION_CODE_SECONDS = 3600;
/** GoTrue's secure password change: a session younger than this may change the password without a nonce. */
const RECENT_SIGN_IN_SECONDS = 24 * 60 * 60;

export function userRoutes(ctx: AuthContext): Hono<Env> {
  const { deps, sql, siteUrl, inBackground, authenticate } = ctx;
  const routes = new Hono<Env>();

  // GET /reauthenticate's codes, by user id: the hash of address and code, and when it was sent.
  const reauthentications = new Map<string, { hash: string; sentAt: number }>();

  /** The reauthentication code's hash, as GoTrue stores it: sha224 of the address and the code. */
  function reauthenticationHash(email: string, code: string): string {
    return createHash('sha224').update(`${email}${code}`).digest('hex');
  }

  /**
   * GoTrue's secure password change: a session signed in within the last 24 hours may change the
   * password; an older one (or a token without a session) needs the nonce GET /reauthenticate
   * mailed. Returns whether a code was used, to be spent once the change is made.
   */
  function requireRecentSignInOrNonce(
    user: UserRow,
    sessionCreatedAt: Date | null,
    nonce: string | undefined,
  ): boolean {
    if (!deps.securePasswordChange) return false;
    const recent =
      sessionCreatedAt !== null && Date.now() - sessionCreatedAt.getTime() <= RECENT_SIGN_IN_SECONDS * 1000;
    if (recent) return false;
    if (!nonce) throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication');
    const pending = reauthentications.get(user.id);
    const valid =
      pending !== undefined &&
      Date.now() - pending.sentAt <= REAUTHENTICATION_CODE_SECONDS * 1000 &&
      pending.hash === reauthenticationHash(user.email ?? '', nonce);
    if (!valid) throw new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
    return true;
  }

  routes.get('/user', async (c) => {
    const user = await sql.begin(async (tx) => {
      const { user } = await authenticate(c, tx);
      return userJson(user, await identitiesOf(tx, user.id));
    });
    return c.json(user);
  });

  routes.put('/user', async (c) => {
    const body = await readJson(c);
    const { user, sessionCreatedAt } = await sql.begin((tx) => authenticate(c, tx));
    // GoTrue's email change with double_confirm_changes off (config.toml): a link to the new
    // address only; the address changes when it is verified (POST /verify type email_change).
    const email = stringField(body, 'email');
    let newEmail: string | undefined;
    if (email !== undefined && email.trim().toLowerCase() !== (user.email ?? '').toLowerCase()) {
      newEmail = requireValidEmail(email);
    }
    const emailChangeToken = newEmail ? randomBytes(28).toString('hex') : undefined;
    const password = stringField(body, 'password');
    let passwordHash: string | undefined;
    let spendsNonce = false;
    if (password !== undefined) {
      // GoTrue's order: strength, then reauthentication, then "not the same password".
      checkPasswordStrength(password, deps.passwordPolicy);
      spendsNonce = requireRecentSignInOrNonce(user, sessionCreatedAt, stringField(body, 'nonce'));
      if (user.encrypted_password && (await deps.passwords.compare(password, user.encrypted_password))) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
      }
      passwordHash = await deps.passwords.hash(password, BCRYPT_COST);
    }
    const data = objectField(body, 'data');
    const updated = await sql.begin(async (tx) => {
      // Re-check inside the transaction: the session may have ended meanwhile.
      const { user: current, sessionId } = await authenticate(c, tx);
      if (passwordHash) {
        await tx`update auth.users set encrypted_password = ${passwordHash}, updated_at = now() where id = ${current.id}`;
        // GoTrue's User.UpdatePassword: every other session of the user ends.
        await deleteSessions(tx, current.id, 'others', sessionId);
      }
      if (newEmail && emailChangeToken) {
        if (await findUserByEmail(tx, newEmail)) {
          throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        const [sent] = await tx<{ email_change_sent_at: Date | null }[]>`
          select email_change_sent_at from auth.users where id = ${current.id}`;
        const elapsed = (Date.now() - (sent?.email_change_sent_at?.getTime() ?? 0)) / 1000;
        if (elapsed < EMAIL_MIN_INTERVAL_SECONDS) {
          throw new AuthError(
            429,
            'over_email_send_rate_limit',
            `For security purposes, you can only request this after ${Math.max(1, Math.ceil(EMAIL_MIN_INTERVAL_SECONDS - elapsed))} seconds.`,
          );
        }
        await tx`update auth.users set email_change = ${newEmail},
          email_change_token_new = ${sha256Hex(emailChangeToken)}, email_change_sent_at = now(), updated_at = now()
          where id = ${current.id}`;
      }
      if (data) {
        const metadata = mergeMetadata(current.raw_user_meta_data ?? {}, data);
        await tx`update auth.users set raw_user_meta_data = ${jsonb(tx, metadata)}, updated_at = now()
          where id = ${current.id}`;
      }
      return loadUserJson(tx, current.id);
    });
    if (spendsNonce) reauthentications.delete(user.id);
    if (newEmail && emailChangeToken) {
      const to = newEmail;
      const data = {
        SiteURL: siteUrl,
        TokenHash: emailChangeToken,
        Email: user.email ?? '',
        NewEmail: to,
        RedirectTo: siteUrl,
      };
      inBackground(() => deps.mailer.sendEmailChange(to, data), 'email change email');
    }
    return c.json(updated);
  });

  // GoTrue's GET /reauthenticate: mails a 6-digit code that PUT /user accepts as `nonce`.
  routes.get('/reauthenticate', async (c) => {
    const { user } = await sql.begin((tx) => authenticate(c, tx));
    if (!user.email)
      throw new AuthError(422, 'validation_failed', 'Reauthentication requires an email or a phone number');
    if (!user.email_confirmed_at) throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
    const previous = reauthentications.get(user.id);
    if (previous && Date.now() - previous.sentAt < EMAIL_MIN_INTERVAL_SECONDS * 1000) {
      throw new AuthError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this once every ${EMAIL_MIN_INTERVAL_SECONDS} seconds`,
      );
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    reauthentications.set(user.id, { hash: reauthenticationHash(user.email, code), sentAt: Date.now() });
    const to = user.email;
    inBackground(
      () => deps.mailer.sendReauthentication(to, { Token: code, Email: to, SiteURL: siteUrl }),
      'reauthentication email',
    );
    return c.json({});
  });

  return routes;
}
