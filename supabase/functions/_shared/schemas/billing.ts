// Request bodies of the billing calls (docs/architecture.md "Billing API"); the api and the web
// forms parse with these same schemas.
import { z } from 'zod';
import { SUBSCRIPTION_TIERS } from '../constants.ts';
import { listQuerySchema } from './pagination.ts';

const tier = z.enum(SUBSCRIPTION_TIERS, { error: 'Tier must be free or premium' });

/** When a downgrade takes effect: now (the spec's downgrade) or at the end of the paid year. */
export const DOWNGRADE_TIMES = ['now', 'period_end'] as const;
export type DowngradeTime = (typeof DOWNGRADE_TIMES)[number];

/**
 * `POST /api/subscription/update`: tier free or premium; paymentMethod optional (spec section 5).
 * `{tier: 'free'}` downgrades now; `{tier: 'free', at: 'period_end'}` schedules it for the end of
 * the paid year (renewal off, Premium kept until then); `{tier: 'premium'}` by a Premium traveller
 * with a downgrade scheduled cancels it (renewal back on).
 */
export const updateSubscriptionSchema = z.strictObject({
  tier,
  paymentMethod: z.string({ error: 'Payment method must be text' }).trim().max(200).optional(),
  at: z.enum(DOWNGRADE_TIMES, { error: 'At must be now or period_end' }).optional(),
});
export type UpdateSubscriptionBody = z.infer<typeof updateSubscriptionSchema>;

const positiveCents = (what: string) =>
  z
    .number({ error: `${what} must be a number of cents` })
    .int({ error: `${what} must be a whole number of cents` })
    .positive({ error: `${what} must be above 0` })
    .max(100_000_000, { error: `${what} is too large` });

/** `POST /api/stripe/payment-intent`: the amount must equal the plan's price (checked on the server). */
export const paymentIntentSchema = z.strictObject({
  amount: positiveCents('Amount'),
  planId: z
    .number({ error: 'Plan id must be a number' })
    .int({ error: 'Plan id must be a whole number' })
    .positive({ error: 'Plan id must be a whole number' }),
});
export type PaymentIntentBody = z.infer<typeof paymentIntentSchema>;

/** `POST /api/stripe/create-checkout-session`: optionally a plan (default: the active premium plan). */
export const checkoutSessionSchema = z.strictObject({
  planId: z
    .number({ error: 'Plan id must be a number' })
    .int({ error: 'Plan id must be a whole number' })
    .positive({ error: 'Plan id must be a whole number' })
    .optional(),
});
export type CheckoutSessionBody = z.infer<typeof checkoutSessionSchema>;

export const TEST_MODE_OUTCOMES = ['succeeded', 'failed'] as const;
export type TestModeOutcome = (typeof TEST_MODE_OUTCOMES)[number];

/** `POST /api/stripe/test-mode/confirm` (mounted only in test mode). */
export const testModeConfirmSchema = z.strictObject({
  paymentIntentId: z
    .string({ error: 'Payment intent id is required' })
    .trim()
    .min(1, { error: 'Payment intent id is required' })
    .max(255, { error: 'Payment intent id is too long' }),
  outcome: z.enum(TEST_MODE_OUTCOMES, { error: 'Outcome must be succeeded or failed' }).default('succeeded'),
});
export type TestModeConfirmBody = z.infer<typeof testModeConfirmSchema>;

export const TEST_CARDS = ['valid', 'declining'] as const;

/** `POST /api/billing/card`: in test mode, which test card to save (a declining one tries the failure path). */
export const changeCardSchema = z.strictObject({
  testCard: z.enum(TEST_CARDS, { error: 'Test card must be valid or declining' }).optional(),
});
export type ChangeCardBody = z.infer<typeof changeCardSchema>;

/** `GET /api/billing/history`: the shared list convention, newest first by default. */
export const billingHistoryQuerySchema = listQuerySchema({
  sortKeys: ['date', 'amount', 'type', 'status'],
  defaultSort: 'date',
  defaultOrder: 'desc',
  defaultPageSize: 10,
});
