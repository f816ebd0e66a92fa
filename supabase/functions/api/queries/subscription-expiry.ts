// The end of a paid year (migration 20261122000800_billing_and_payments.sql): the SQL pass decides
// who is due and moves them; this is its caller.
import type { Tx } from '../db.ts';

/** private.expire_subscriptions: how many travellers whose paid year ended went to the free plan. */
export async function expireSubscriptions(tx: Tx, now: Date): Promise<number> {
  const [row] = await tx<{ moved: number }[]>`select private.expire_subscriptions(${now}) as moved`;
  return row?.moved ?? 0;
}
