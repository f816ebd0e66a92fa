// Everything FareBack holds on one traveller, for 'Download my data', and the deletion of an
// account (keeping only the anonymised ledger rows the law requires). Service queries: each names
// the account it reads or deletes; the route has already proved who is asking.
import type { Tx } from '../db.ts';

/** The account's own rows, table by table (tokens and secrets left out), as JSON values. */
export async function accountDataOf(tx: Tx, userId: string): Promise<Record<string, unknown>> {
  const [row] = await tx<{ data: Record<string, unknown> }[]>`
    select jsonb_build_object(
      'account', (select to_jsonb(u) from (
        select a.email, a.created_at, a.last_sign_in_at,
               (select coalesce(jsonb_agg(i.provider), '[]'::jsonb) from auth.identities i where i.user_id = a.id)
                 as sign_in_methods
          from auth.users a where a.id = ${userId}) u),
      'profile', (select to_jsonb(p) from public.profiles p where p.id = ${userId}),
      'flights', (select coalesce(jsonb_agg(to_jsonb(f) order by f.id), '[]'::jsonb)
                    from public.flights f where f.user_id = ${userId}),
      'priceHistory', (select coalesce(jsonb_agg(to_jsonb(fp) order by fp.id), '[]'::jsonb)
                         from public.flight_prices fp where fp.user_id = ${userId}),
      'rebookings', (select coalesce(jsonb_agg(to_jsonb(r) order by r.id), '[]'::jsonb)
                       from private.rebookings r where r.user_id = ${userId}),
      'autoRebookingLog', (select coalesce(jsonb_agg(to_jsonb(l) order by l.id), '[]'::jsonb)
                             from public.auto_rebooking_logs l where l.scope_user_id = ${userId}),
      'notifications', (select coalesce(jsonb_agg(to_jsonb(n) order by n.id), '[]'::jsonb)
                          from public.notification_history n where n.user_id = ${userId}),
      'billingTransactions', (select coalesce(jsonb_agg(to_jsonb(b) order by b.id), '[]'::jsonb)
                                from public.billing_transactions b where b.user_id = ${userId}),
      'emailConnection', (select to_jsonb(ec) - 'access_token_encrypted' - 'refresh_token_encrypted'
                            from public.email_connections ec where ec.user_id = ${userId}),
      'emailScans', (select coalesce(jsonb_agg(to_jsonb(s) order by s.id), '[]'::jsonb)
                       from public.email_scans s where s.user_id = ${userId}),
      'emailImports', (select coalesce(jsonb_agg(to_jsonb(ei) order by ei.id), '[]'::jsonb)
                         from public.email_imports ei where ei.user_id = ${userId}),
      'contactMessages', (select coalesce(jsonb_agg(to_jsonb(c) order by c.id), '[]'::jsonb)
                            from public.contact_messages c where c.user_id = ${userId})
    ) as data
  `;
  return row?.data ?? {};
}

/**
 * Copies the account's billing rows and the commission it owes into private.closed_account_ledger
 * under a random reference, with `reason`; answers how many rows were kept.
 */
export async function retainLedger(tx: Tx, userId: string, reason: string): Promise<number> {
  const rows = await tx<{ kept: number }[]>`
    with ref as (select gen_random_uuid() as id),
    kept as (
      insert into private.closed_account_ledger
        (closed_account_ref, kind, amount, currency, transaction_type, status, transaction_date,
         billing_period_start, billing_period_end, reason)
      select ref.id, 'billing_transaction', b.amount, b.currency, b.type, b.status, b.transaction_date,
             b.billing_period_start, b.billing_period_end, ${reason}
        from public.billing_transactions b, ref where b.user_id = ${userId}
      union all
      select ref.id, 'commission_owed', p.commission_owed, 'USD', null, null, null, null, null, ${reason}
        from public.profiles p, ref where p.id = ${userId} and p.commission_owed > 0
      returning 1
    )
    select count(*)::int as kept from kept
  `;
  return rows[0]?.kept ?? 0;
}

/** Deletes the sign-in account; the profile and every row that hangs off it follow (cascade). */
export async function deleteSignInAccount(tx: Tx, userId: string): Promise<void> {
  await tx`delete from auth.users where id = ${userId}`;
}

/** Whether the account signs in with a password (else only with Google). */
export async function hasPassword(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx<{ has: boolean }[]>`
    select coalesce(encrypted_password, '') <> '' as has from auth.users where id = ${userId}`;
  return row?.has ?? false;
}
