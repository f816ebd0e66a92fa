import { adminAuditQuerySchema } from '@shared/schemas/admin.ts';
import type { AdminAuditEntry, AuditAction } from '@shared/types/admin.ts';
import { formatMoney } from '@/lib/format';
import { paginatedQueryOptions, type ListQuery } from '@/lib/pagination';
import { adminKeys } from './api';
import { tableOptionsOf } from './list-table-options';

/** The table's URL state (`audit.page`, `audit.q`...) over the endpoint's sort keys and defaults. */
export const AUDIT_TABLE = tableOptionsOf(adminAuditQuerySchema, 'audit');
export type AuditSortKey = (typeof AUDIT_TABLE.sortKeys)[number];

export const adminAuditQueryOptions = (query: ListQuery<AuditSortKey>) =>
  paginatedQueryOptions<AdminAuditEntry, AuditSortKey>(adminKeys.audit(), '/admin/audit', query);

/** What each recorded action reads as on screen. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'admin.grant': 'Admin granted',
  'admin.revoke': 'Admin revoked',
  'plan.create': 'Plan created',
  'plan.update': 'Plan updated',
  'commission.payment': 'Commission payment',
  'run.price_check': 'Price check run',
  'run.auto_rebooking': 'Auto-rebooking run',
  'payment.dispute': 'Payment disputed',
  'airline_rule.create': 'Airline rule created',
  'airline_rule.update': 'Airline rule updated',
  'airline.automation': 'Airline automation switched',
};

/** One field of an entry: its value before and after (undefined where that side has no value). */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The fields an entry changed, in the order they were recorded: a field whose value is the same
 * before and after is left out; an entry with one side only (a plan created, a run's counts)
 * lists every field of that side.
 */
export function auditChanges({ before, after }: Pick<AdminAuditEntry, 'before' | 'after'>): AuditChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }))
    .filter((change) => JSON.stringify(change.before) !== JSON.stringify(change.after));
}

/**
 * The recorded fields that are money (integer cents, as the admin API names them: a plan's price,
 * a payment's amount and the balances it moved, a run's savings), shown in dollars.
 */
const MONEY_FIELDS: ReadonlySet<string> = new Set([
  'price',
  'amount',
  'commissionOwed',
  'commissionPaid',
  'savings',
  'savingsAmount',
]);

/** A recorded value as text: money in dollars, strings bare, null as 'none', anything else as JSON. */
export function auditValue(value: unknown, field?: string): string {
  if (value === undefined) return '';
  if (value === null) return 'none';
  if (typeof value === 'number' && field !== undefined && MONEY_FIELDS.has(field)) return formatMoney(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
