// The airline rulebook (migration 20261122000600_rebooking.sql, public.airline_rules and
// public.airline_automation_pauses). Admin writes run on the service connection after
// requireAdmin; the service audits them in the same transaction.
import type postgres from 'postgres';
import type { AirlineRuleBody } from '../../_shared/schemas/airline-rules.ts';
import type { AirlinePause, AirlineRule } from '../../_shared/types/airline-rules.ts';
import type { Tx } from '../db.ts';

const RULE_JSON = `json_build_object(
  'id', r.id, 'airlineCode', r.airline_code, 'airlineName', r.airline_name, 'farePattern', r.fare_pattern,
  'fareLabel', r.fare_label, 'validFrom', r.valid_from, 'validTo', r.valid_to,
  'changeAllowed', r.change_allowed, 'changeFees', r.change_fees, 'refundForm', r.refund_form,
  'creditName', r.credit_name, 'creditValidMonths', r.credit_valid_months,
  'creditTransferable', r.credit_transferable, 'rebookingMode', r.rebooking_mode, 'source', r.source,
  'note', r.note, 'explanation', private.airline_rule_explanation(r, 'USD'),
  'updatedAt', to_char(r.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

export async function listAirlineRules(tx: Tx): Promise<{ rules: AirlineRule[]; paused: AirlinePause[] }> {
  const [row] = await tx<{ rules: AirlineRule[]; paused: AirlinePause[] }[]>`
    select
      (select coalesce(json_agg(${tx.unsafe(RULE_JSON)} order by r.airline_code = '*' desc, r.airline_code,
                                r.fare_pattern = '*', r.fare_pattern, r.valid_from), '[]'::json)
         from public.airline_rules r) as rules,
      (select coalesce(json_agg(json_build_object('airlineCode', a.airline_code,
                 'pausedAt', to_char(a.paused_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'reason', a.reason) order by a.airline_code), '[]'::json)
         from public.airline_automation_pauses a) as paused
  `;
  return { rules: row?.rules ?? [], paused: row?.paused ?? [] };
}

export async function getAirlineRule(tx: Tx, id: number): Promise<AirlineRule | null> {
  const [row] = await tx<{ rule: AirlineRule }[]>`
    select ${tx.unsafe(RULE_JSON)} as rule from public.airline_rules r where r.id = ${id}`;
  return row?.rule ?? null;
}

const columns = (tx: Tx, b: AirlineRuleBody) => ({
  airline_code: b.airlineCode,
  airline_name: b.airlineName,
  fare_pattern: b.farePattern,
  fare_label: b.fareLabel,
  valid_from: b.validFrom,
  valid_to: b.validTo,
  change_allowed: b.changeAllowed,
  change_fees: tx.json(b.changeFees as postgres.JSONValue),
  refund_form: b.refundForm,
  credit_name: b.creditName,
  credit_valid_months: b.creditValidMonths,
  credit_transferable: b.creditTransferable,
  rebooking_mode: b.rebookingMode,
  source: b.source,
  note: b.note,
});

export async function insertAirlineRule(tx: Tx, b: AirlineRuleBody): Promise<number> {
  const [row] = await tx<{ id: string }[]>`insert into public.airline_rules ${tx(columns(tx, b))} returning id`;
  return Number(row?.id);
}

/** False when there is no such rule. */
export async function updateAirlineRule(tx: Tx, id: number, b: AirlineRuleBody): Promise<boolean> {
  const rows = await tx`update public.airline_rules set ${tx(columns(tx, b))} where id = ${id} returning id`;
  return rows.length === 1;
}

/** The kill switch (private.set_airline_automation): answers how many queued flights were dropped. */
export async function setAirlineAutomation(
  tx: Tx,
  a: { airlineCode: string; enabled: boolean; adminId: string; reason: string | null },
): Promise<number> {
  const [row] = await tx<{ dropped: number }[]>`
    select private.set_airline_automation(${a.airlineCode}, ${a.enabled}, ${a.adminId}::uuid, ${a.reason}) as dropped`;
  return row?.dropped ?? 0;
}

/** The database refused overlapping validity (FBRUL) or an invalid fare pattern (2201B). */
export function airlineRuleRefusal(error: unknown): 'overlap' | 'badPattern' | null {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FBRUL') return 'overlap';
  if (code === '2201B') return 'badPattern';
  return null;
}
