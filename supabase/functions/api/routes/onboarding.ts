// The onboarding wizard (/onboarding): finishing or skipping it is remembered on the profile, so
// the account is not sent to it again (GET /api/auth/me: onboardingCompleted).
import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { completeOnboarding } from '../queries/profiles.ts';

export const ONBOARDING_MESSAGES = { completed: 'Onboarding complete' } as const;

export const onboardingRouter = new Hono<AppEnv>().post('/complete', async (c) => {
  const userId = c.var.claims.sub;
  await c.var.deps.db.asService((tx) => completeOnboarding(tx, userId));
  return c.json({ message: ONBOARDING_MESSAGES.completed });
});
