// The airline rulebook's admin tab (issue 24; docs/architecture.md "Airline rules"): list, create,
// edit and the per-airline kill switch. Every write and its audit row commit together.
import { AIRLINE_RULE_MESSAGES, type AirlineRuleBody } from '../../_shared/schemas/airline-rules.ts';
import type {
  AirlineAutomationResponse,
  AirlineRuleResponse,
  AirlineRulesResponse,
} from '../../_shared/types/airline-rules.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims, Tx } from '../db.ts';
import { FieldValidationError, HttpError } from '../errors.ts';
import { recordAdminAction } from '../queries/admin-audit.ts';
import {
  airlineRuleRefusal,
  getAirlineRule,
  insertAirlineRule,
  listAirlineRules,
  setAirlineAutomation,
  updateAirlineRule,
} from '../queries/airline-rules.ts';

export async function listRules(deps: AppDeps, claims: AuthClaims): Promise<AirlineRulesResponse> {
  return await deps.db.asUser(claims, listAirlineRules);
}

/** The database's refusals, on the field they are about. */
async function refusingOnFields<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const refusal = airlineRuleRefusal(error);
    if (refusal === 'overlap')
      throw new FieldValidationError([{ field: 'validTo', message: AIRLINE_RULE_MESSAGES.overlap }]);
    if (refusal === 'badPattern') {
      throw new FieldValidationError([{ field: 'farePattern', message: AIRLINE_RULE_MESSAGES.badPattern }]);
    }
    throw error;
  }
}

const label = (b: AirlineRuleBody) => `${b.airlineName} ${b.fareLabel}`;

export async function createRule(
  deps: AppDeps,
  claims: AuthClaims,
  body: AirlineRuleBody,
): Promise<AirlineRuleResponse> {
  const rule = await refusingOnFields(
    deps.db.asService(async (tx: Tx) => {
      const id = await insertAirlineRule(tx, body);
      await recordAdminAction(tx, {
        actorId: claims.sub,
        action: 'airline_rule.create',
        targetType: 'airline_rule',
        targetId: String(id),
        targetLabel: label(body),
        after: { ...body },
      });
      return await getAirlineRule(tx, id);
    }),
  );
  if (!rule) throw new Error('the new airline rule was not found');
  return { rule };
}

export async function editRule(
  deps: AppDeps,
  claims: AuthClaims,
  id: number,
  body: AirlineRuleBody,
): Promise<AirlineRuleResponse> {
  const rule = await refusingOnFields(
    deps.db.asService(async (tx: Tx) => {
      const before = await getAirlineRule(tx, id);
      if (!before || !(await updateAirlineRule(tx, id, body))) return null;
      await recordAdminAction(tx, {
        actorId: claims.sub,
        action: 'airline_rule.update',
        targetType: 'airline_rule',
        targetId: String(id),
        targetLabel: label(body),
        before: { ...before },
        after: { ...body },
      });
      return await getAirlineRule(tx, id);
    }),
  );
  if (!rule) throw new HttpError(404, 'Airline rule not found');
  return { rule };
}

export async function switchAirlineAutomation(
  deps: AppDeps,
  claims: AuthClaims,
  airlineCode: string,
  input: { enabled: boolean; reason?: string | null | undefined },
): Promise<AirlineAutomationResponse> {
  const droppedFlights = await deps.db.asService(async (tx: Tx) => {
    const dropped = await setAirlineAutomation(tx, {
      airlineCode,
      enabled: input.enabled,
      adminId: claims.sub,
      reason: input.reason ?? null,
    });
    await recordAdminAction(tx, {
      actorId: claims.sub,
      action: 'airline.automation',
      targetType: 'airline',
      targetId: airlineCode,
      targetLabel: airlineCode,
      after: { enabled: input.enabled, reason: input.reason ?? null, droppedFlights: dropped },
    });
    return dropped;
  });
  deps.log({ level: 'info', msg: 'airline automation switched', airlineCode, enabled: input.enabled, droppedFlights });
  return { airlineCode, enabled: input.enabled, droppedFlights };
}
