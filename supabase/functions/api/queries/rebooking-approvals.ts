// Approvals asked where the airline rule says 'approval' (migration 20261122000600_rebooking.sql,
// private.rebooking_approvals). Service connection only.
import type { Tx } from '../db.ts';
import { queueNotification } from './notifications.ts';

export interface RebookingApproval {
  id: number;
  flightId: number;
  userId: string;
  fare: number;
  netSavings: number;
  ruleExplanation: string;
  expiresAt: Date;
  usedAt: Date | null;
}

interface Row {
  id: string;
  flight_id: string;
  user_id: string;
  fare: number;
  net_savings: number;
  rule_explanation: string;
  expires_at: Date;
  used_at: Date | null;
}

const toApproval = (r: Row): RebookingApproval => ({
  id: Number(r.id),
  flightId: Number(r.flight_id),
  userId: r.user_id,
  fare: r.fare,
  netSavings: r.net_savings,
  ruleExplanation: r.rule_explanation,
  expiresAt: new Date(r.expires_at),
  usedAt: r.used_at ? new Date(r.used_at) : null,
});

/**
 * Opens the request for one flight at one fare; null when one was already asked for that fare (the
 * traveller is emailed once per flight and fare).
 */
export async function openApproval(
  tx: Tx,
  a: {
    flightId: number;
    userId: string;
    fare: number;
    netSavings: number;
    ruleId: number | null;
    ruleExplanation: string;
    expiresAt: Date;
  },
): Promise<RebookingApproval | null> {
  const [row] = await tx<Row[]>`
    insert into private.rebooking_approvals (flight_id, user_id, fare, net_savings, rule_id, rule_explanation, expires_at)
    values (${a.flightId}, ${a.userId}, ${a.fare}, ${a.netSavings}, ${a.ruleId}, ${a.ruleExplanation}, ${a.expiresAt})
    on conflict (flight_id, fare) do nothing
    returning *
  `;
  return row ? toApproval(row) : null;
}

export async function findApproval(tx: Tx, id: number): Promise<RebookingApproval | null> {
  const [row] = await tx<Row[]>`select * from private.rebooking_approvals where id = ${id}`;
  return row ? toApproval(row) : null;
}

/** Uses the link, once: false when it was used already or has expired (nothing changed). */
export async function useApproval(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx`
    update private.rebooking_approvals set used_at = now()
     where id = ${id} and used_at is null and expires_at > now()
    returning id
  `;
  return rows.length === 1;
}

export async function closeApproval(tx: Tx, id: number, outcome: 'rebooked' | 'refused'): Promise<void> {
  await tx`update private.rebooking_approvals set outcome = ${outcome} where id = ${id}`;
}

/** The approval email: the new fare, the net savings, the rule, the signed link. */
export async function queueApprovalRequest(
  tx: Tx,
  n: {
    approval: RebookingApproval;
    airline: string;
    flightNumber: string;
    departureAirport: string;
    arrivalAirport: string;
    oldPrice: number;
    currency: string;
    link: string;
  },
): Promise<void> {
  await queueNotification(tx, {
    userId: n.approval.userId,
    type: 'rebooking_approval',
    data: {
      airline: n.airline,
      flightNumber: n.flightNumber,
      departureAirport: n.departureAirport,
      arrivalAirport: n.arrivalAirport,
      oldPrice: n.oldPrice,
      newPrice: n.approval.fare,
      currency: n.currency,
      netSavings: n.approval.netSavings,
      rule: n.approval.ruleExplanation,
      expiresAt: n.approval.expiresAt.toISOString(),
      link: n.link,
    },
    flightId: n.approval.flightId,
    dedupeKey: `rebooking_approval:${n.approval.id}`,
  });
}
