// Accounts. Sign-up, login, logout, password recovery, address
// confirmation and Google sign-in carry no session and are mounted before the auth middleware;
// `me` after it.
import { Hono } from 'hono';
import {
  changeEmailInputSchema,
  changePasswordInputSchema,
  confirmEmailChangeInputSchema,
  confirmEmailInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  registerInputSchema,
  resetPasswordInputSchema,
} from '../../_shared/schemas/auth.ts';
import type { AppEnv } from '../context.ts';
import { HttpError, NOT_AUTHENTICATED } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { clientIp } from '../lib/client-ip.ts';
import { bearerToken } from '../middleware/auth.ts';
import { getCurrentUser } from '../queries/profiles.ts';
import {
  googleSignInUrl,
  logIn,
  logOut,
  MESSAGES,
  registerAccount,
  requestPasswordReset,
  resetPassword,
} from '../services/accounts.ts';
import { CONFIRMATION_MESSAGES, confirmEmail, resendConfirmation } from '../services/email-confirmation.ts';
import { changePassword, confirmEmailChange, requestEmailChange } from '../services/account-changes.ts';

export const publicAuthRouter = new Hono<AppEnv>()
  .post('/register', async (c) => {
    const input = await readJson(c, registerInputSchema);
    const result = await registerAccount(c.var.deps, input);
    c.set('userId', result.user.id);
    return c.json(result, 201);
  })
  .post('/login', async (c) => {
    const input = await readJson(c, loginInputSchema);
    const result = await logIn(c.var.deps, input, clientIp(c.req.raw.headers, c.var.deps.config.trustedProxyHops));
    c.set('userId', result.user.id);
    return c.json(result);
  })
  .post('/logout', async (c) => {
    await logOut(c.var.deps, bearerToken(c.req.header('Authorization')));
    return c.json({ message: MESSAGES.loggedOut });
  })
  .post('/forgot-password', async (c) => {
    requestPasswordReset(c.var.deps, await readJson(c, forgotPasswordInputSchema));
    return c.json({ message: MESSAGES.forgotPassword });
  })
  .post('/reset-password', async (c) => {
    await resetPassword(c.var.deps, await readJson(c, resetPasswordInputSchema));
    return c.json({ message: MESSAGES.passwordReset });
  })
  .post('/confirm-email', async (c) => {
    await confirmEmail(c.var.deps, (await readJson(c, confirmEmailInputSchema)).token);
    return c.json({ message: CONFIRMATION_MESSAGES.confirmed });
  })
  // the link mailed to a new address; signed in or not (the link is the proof)
  .post('/confirm-email-change', async (c) => {
    const { token } = await readJson(c, confirmEmailChangeInputSchema);
    return c.json(await confirmEmailChange(c.var.deps, token));
  })
  .get('/google', (c) => c.redirect(googleSignInUrl(c.var.deps), 302));

export const authRouter = new Hono<AppEnv>()
  .get('/me', async (c) => {
    const claims = c.var.claims;
    const user = await c.var.deps.db.asUser(claims, (tx) => getCurrentUser(tx, claims.email));
    if (!user) throw new HttpError(401, NOT_AUTHENTICATED);
    return c.json({ user });
  })
  .post('/resend-confirmation', async (c) => {
    const claims = c.var.claims;
    const user = await c.var.deps.db.asUser(claims, (tx) => getCurrentUser(tx, claims.email));
    if (!user) throw new HttpError(401, NOT_AUTHENTICATED);
    const account = { userId: user.id, email: user.email, emailConfirmed: user.emailConfirmed };
    return c.json({ message: await resendConfirmation(c.var.deps, account) });
  })
  .post('/change-email', async (c) => {
    const input = await readJson(c, changeEmailInputSchema);
    const accessToken = bearerToken(c.req.header('Authorization')) ?? '';
    return c.json(await requestEmailChange(c.var.deps, { claims: c.var.claims, accessToken }, input));
  })
  .post('/change-password', async (c) => {
    const input = await readJson(c, changePasswordInputSchema);
    const ip = clientIp(c.req.raw.headers, c.var.deps.config.trustedProxyHops);
    return c.json(await changePassword(c.var.deps, { claims: c.var.claims, ip }, input));
  });
