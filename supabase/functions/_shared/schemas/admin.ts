// Requests of the admin calls (docs/architecture.md "Admin API"); the api and the admin screens
// parse with these same schemas. Plan fields are integers (spec section 5: "price, flightLimit,
// commissionRate read as integers"); their bounds are the subscription_plans CHECK constraints.
import { z } from 'zod';
import { UNLIMITED_FLIGHTS } from '../constants.ts';
import { listQuerySchema } from './pagination.ts';

export const PLAN_NAME_MAX_LENGTH = 100;
export const PLAN_DESCRIPTION_MAX_LENGTH = 2000;
/** $1,000,000 a year: a typo guard, not a business rule. */
export const PLAN_PRICE_MAX_CENTS = 100_000_000;
export const PLAN_FLIGHT_LIMIT_MAX = 100_000;

const FLIGHT_LIMIT_RULE = `Flight limit must be -1 (unlimited) or from 1 to ${PLAN_FLIGHT_LIMIT_MAX}`;

const integer = (what: string, min: number, max: number, rule: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int({ error: `${what} must be a whole number` })
    .min(min, { error: rule })
    .max(max, { error: rule });

/** `POST /api/admin/subscription-plans` and `PUT /api/admin/subscription-plans/{id}`. */
export const subscriptionPlanSchema = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(PLAN_NAME_MAX_LENGTH, { error: `Name must be at most ${PLAN_NAME_MAX_LENGTH} characters` }),
  price: integer('Price', 0, PLAN_PRICE_MAX_CENTS, 'Price must be 0 or more cents (at most $1,000,000)'),
  flightLimit: integer('Flight limit', UNLIMITED_FLIGHTS, PLAN_FLIGHT_LIMIT_MAX, FLIGHT_LIMIT_RULE).refine(
    (n) => n !== 0,
    {
      error: FLIGHT_LIMIT_RULE,
    },
  ),
  commissionRate: integer('Commission rate', 0, 100, 'Commission rate must be from 0 to 100 percent').default(0),
  description: z
    .string({ error: 'Description must be text' })
    .trim()
    .max(PLAN_DESCRIPTION_MAX_LENGTH, {
      error: `Description must be at most ${PLAN_DESCRIPTION_MAX_LENGTH} characters`,
    })
    .nullable()
    .optional()
    .transform((d) => (d ? d : null)),
  autoRebookingEnabled: z.boolean({ error: 'Auto-rebooking enabled must be true or false' }).default(false),
  isActive: z.boolean({ error: 'Active must be true or false' }).default(true),
});
export type SubscriptionPlanBody = z.infer<typeof subscriptionPlanSchema>;
export type SubscriptionPlanInput = z.input<typeof subscriptionPlanSchema>;

/** `PUT /api/admin/users/{id}/admin`. */
export const userAdminSchema = z.strictObject({
  isAdmin: z.boolean({ error: 'isAdmin must be true or false' }),
});
export type UserAdminBody = z.infer<typeof userAdminSchema>;

/** `POST /api/stripe/pay-commission` in the admin view: record a traveller's payment. */
export const adminCommissionPaymentSchema = z.strictObject({
  userId: z.uuid({ error: 'User id must be a user id' }),
  amount: z
    .number({ error: 'Amount must be a number of cents' })
    .int({ error: 'Amount must be a whole number of cents' })
    .positive({ error: 'Amount must be above 0' })
    .max(PLAN_PRICE_MAX_CENTS, { error: 'Amount is too large' }),
});
export type AdminCommissionPaymentBody = z.infer<typeof adminCommissionPaymentSchema>;

/** `GET /api/admin/stats?days=N`: the chart's span, 7 to 365 days (default 30). */
export const STATS_SPANS = [7, 30, 90, 365] as const;
export const adminStatsQuerySchema = z.strictObject({
  days: z.coerce
    .number({ error: 'Days must be a whole number from 7 to 365' })
    .int({ error: 'Days must be a whole number from 7 to 365' })
    .min(7, { error: 'Days must be a whole number from 7 to 365' })
    .max(365, { error: 'Days must be a whole number from 7 to 365' })
    .default(30),
});

/** `GET /api/admin/users`: search by username or email. */
export const adminUsersQuerySchema = listQuerySchema({
  sortKeys: ['createdAt', 'username', 'email', 'tier', 'flights', 'commissionOwed'],
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
});

/** `GET /api/admin/flights`: search by booking code, airline, flight number or route (JFK, JFK-LAX). */
export const adminFlightsQuerySchema = listQuerySchema({
  sortKeys: [
    'createdAt',
    'departureDate',
    'airline',
    'bookingCode',
    'status',
    'originalPrice',
    'airlineCredit',
    'user',
  ],
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
});

/** `GET /api/admin/billing`: search by the traveller (username or email), type or status. */
export const adminBillingQuerySchema = listQuerySchema({
  sortKeys: ['date', 'amount', 'type', 'status', 'user'],
  defaultSort: 'date',
  defaultOrder: 'desc',
});

/** `GET /api/admin/audit`: newest first; search by action, actor or target. */
export const adminAuditQuerySchema = listQuerySchema({
  sortKeys: ['at', 'action', 'actor'],
  defaultSort: 'at',
  defaultOrder: 'desc',
});
