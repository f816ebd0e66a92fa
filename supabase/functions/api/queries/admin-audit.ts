// public.admin_audit_log (migration 20261122000400_admin_audit.sql): the list admins read, run as
// the admin (the table's policy lets admins only read it), and the writer the api calls for what
// is not a row change of its own (commission payments, manual runs), on its own connection: only
// the api's role may execute private.record_admin_action.
import type postgres from 'postgres';
import type { ListPage, ListQuery } from '../../_shared/schemas/pagination.ts';
import type { AdminAuditEntry, AuditAction } from '../../_shared/types/admin.ts';
import type { Tx } from '../db.ts';
import { containsPattern, listPage } from './pagination.ts';

const AUDIT_SORT = { at: 'at', action: 'action', actor: 'actorName' } as const;
export type AdminAuditSortKey = keyof typeof AUDIT_SORT;

/** `GET /api/admin/audit`: newest first unless asked; search by action, actor or target. */
export async function adminAuditPage(tx: Tx, query: ListQuery<AdminAuditSortKey>): Promise<ListPage<AdminAuditEntry>> {
  const search = query.q
    ? tx`where a.action ilike ${containsPattern(query.q)}
            or a.actor_name ilike ${containsPattern(query.q)}
            or a.target_label ilike ${containsPattern(query.q)}
            or a.target_id ilike ${containsPattern(query.q)}`
    : tx``;
  const matching = tx`
    select a.id, a.at, a.actor_id as "actorId", a.actor_name as "actorName", a.action,
           a.target_type as "targetType", a.target_id as "targetId", a.target_label as "targetLabel",
           a.before, a.after
      from public.admin_audit_log a
     ${search}
  `;
  const page = await listPage<AdminAuditEntry & Record<string, unknown>, AdminAuditSortKey>(tx, matching, query, {
    sort: AUDIT_SORT,
    unique: 'id',
  });
  return {
    ...page,
    items: page.items.map((entry) => ({ ...entry, id: Number(entry.id), at: new Date(entry.at).toISOString() })),
  };
}

export interface AdminAction {
  /** The admin who acted (their username is looked up by the writer). */
  actorId: string;
  action: AuditAction;
  targetType: 'user' | 'plan' | 'run' | 'airline_rule' | 'airline';
  targetId: string | null;
  targetLabel: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Writes one audit row in the caller's transaction (the api's own connection); answers its id. */
export async function recordAdminAction(tx: Tx, entry: AdminAction): Promise<number> {
  const json = (value: Record<string, unknown> | null | undefined) =>
    value ? tx.json(value as postgres.JSONValue) : null;
  const [row] = await tx<{ id: string }[]>`
    select private.record_admin_action(
      ${entry.actorId}, ${entry.action}, ${entry.targetType}, ${entry.targetId}, ${entry.targetLabel},
      ${json(entry.before)}, ${json(entry.after)}) as id
  `;
  return Number(row?.id);
}
