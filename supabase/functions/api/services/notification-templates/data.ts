// What each type of notification carries: the facts of the news, never a sentence. Producers (SQL
// through private.queue_notification, TypeScript through queueNotification) write `data` in these
// shapes; the template of the type (a file beside this one) writes the email from them. A row is
// checked against its type's schema when it is rendered: one that does not fit is a failed send
// with the reason (notifications.ts), never a crash or an email with holes in it.
// Amounts are integer cents; dates are ISO 8601 ('2026-11-24' or a timestamp).
import { z } from 'zod';

const cents = z.number().int();
const amount = cents.nonnegative();
const count = z.number().int().nonnegative();
const name = z.string().trim().min(1).max(200);
const date = z
  .string()
  .max(40)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a date');

/** The flight a notification is about (public.flights). */
const flight = {
  airline: name,
  flightNumber: name,
  departureAirport: name,
  arrivalAirport: name,
};

export const notificationDataSchemas = {
  price_drop: z.object({
    ...flight,
    oldPrice: amount,
    newPrice: amount,
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    /** After the fare's change fee; zero or less when the fee eats the drop. */
    netSavings: cents,
    changePenalty: amount.nullable().optional(),
    qualifies: z.boolean(),
    /** private.rebooking_verdict's explanation of `qualifies` (the verdict writes it for the dashboard too). */
    reason: z.string().trim().min(1).max(1000),
    /** The airline rule applied, in words, and how FareBack may act (the verdict's rule and mode). */
    rule: z.string().trim().min(1).max(1000).optional(),
    rebookingMode: z.enum(['automatic', 'approval', 'assisted', 'none']).optional(),
  }),
  rebooking: z.object({
    ...flight,
    newPrice: amount,
    credit: amount,
    reference: name.nullable(),
    creditExpiresAt: date.nullable(),
  }),
  action_needed: z.object({
    ...flight,
    netSavings: cents,
    /** How the airline returns the difference. */
    refundForm: z.enum(['cash', 'credit']),
    /** Where the traveller reads how to ask; only an http(s) link is ever linked. */
    link: z.string().max(2000),
  }),
  /** A drop on a flight whose airline rule says approval: FareBack changes it only once approved. */
  rebooking_approval: z.object({
    ...flight,
    oldPrice: amount,
    newPrice: amount,
    currency: z.string().regex(/^[A-Z]{3}$/),
    netSavings: cents,
    /** The airline rule applied, in words (private.airline_rule_explanation). */
    rule: z.string().trim().min(1).max(1000),
    /** When the quote, and so the link, expires. */
    expiresAt: date,
    /** The signed single-use link; only an http(s) link is ever linked. */
    link: z.string().max(2000),
  }),
  flight_cancelled: z.object(flight),
  credit_expiring: z.object({
    airline: name,
    amount,
    expiresAt: date,
    daysLeft: count,
  }),
  payment_failed: z.object({
    purpose: z.enum(['subscription', 'commission']),
    amount,
    /** What the payment provider said (the payment's failure_message). */
    reason: z.string().trim().min(1).max(500),
  }),
  commission_statement: z.object({
    periodStart: date,
    periodEnd: date,
    credits: amount,
    commissionDue: amount,
    /** The saved card was charged the amount due. */
    charged: z.boolean(),
  }),
  email_reconnect: z.object({ provider: z.enum(['gmail', 'sample']) }),
  import_over_limit: z.object({ found: count, watched: count, limit: count }),
  subscription_expired: z.object({
    endDate: date,
    /** The free plan's limit; -1 is unlimited. */
    flightLimit: z.number().int().min(-1),
    unwatched: count,
  }),
  renewal_reminder: z.object({
    /** The day the paid year ends and renews (the saved card is charged then). */
    renewalDate: date,
    /** The plan row's price charged at the renewal, cents. */
    amount,
    /** Which reminder: 30 or 7 days before. */
    daysBefore: z.union([z.literal(30), z.literal(7)]),
  }),
  payment_refunded: z.object({
    /** Refunded to the card. */
    amount,
    /** The card payment that arrived. */
    paymentAmount: amount,
    /** What of it went to the commission owed. */
    applied: amount,
  }),
  refund_held: z.object({ paymentId: name, amount }),
  admin_alert: z.discriminatedUnion('event', [
    z.object({
      event: z.literal('commission_refunded'),
      userId: name,
      username: name.nullable(),
      paymentId: name,
      refundId: name,
      amount,
    }),
    z.object({
      event: z.enum(['commission_refund_failed', 'commission_refund_held']),
      userId: name,
      username: name.nullable(),
      paymentId: name,
      amount,
      reason: z.string().trim().min(1).max(500),
    }),
  ]),
} as const;

export type NotificationType = keyof typeof notificationDataSchemas;

export type NotificationDataOf<T extends NotificationType> = z.infer<(typeof notificationDataSchemas)[T]>;

/** A type and its data, as producers write them and templates read them. */
export type NotificationContent = {
  [T in NotificationType]: { type: T; data: NotificationDataOf<T> };
}[NotificationType];

/** A stored row that passed its type's schema. */
export type Notification = NotificationContent & { id: number; createdAt: Date };

/** A row as it is stored (public.notification_history): any type, data not yet checked. */
export interface StoredNotification {
  id: number;
  type: string;
  data: unknown;
  createdAt: Date;
}

export const isNotificationType = (type: string): type is NotificationType =>
  Object.hasOwn(notificationDataSchemas, type);

/** The row as its template reads it, or why it cannot be rendered. */
export function readNotification(
  row: StoredNotification,
): { ok: true; note: Notification } | { ok: false; reason: string } {
  if (!isNotificationType(row.type)) {
    return { ok: false, reason: `No email template for notification type "${row.type.slice(0, 50)}".` };
  }
  const parsed = notificationDataSchemas[row.type].safeParse(row.data);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`)
      .join('; ');
    return { ok: false, reason: `The data of this ${row.type} notification does not fit its template: ${problems}` };
  }
  return {
    ok: true,
    note: { id: row.id, createdAt: row.createdAt, type: row.type, data: parsed.data } as Notification,
  };
}
