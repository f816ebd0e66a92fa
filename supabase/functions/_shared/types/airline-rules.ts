// The airline rulebook as `GET /api/admin/airline-rules` answers it (public.airline_rules).
import type { AirlineRuleBody } from '../schemas/airline-rules.ts';

export interface AirlineRule extends AirlineRuleBody {
  id: number;
  /** The rule in words, as the card, the alert and the run quote it (in US dollars). */
  explanation: string;
  updatedAt: string;
}

export interface AirlinePause {
  airlineCode: string;
  pausedAt: string;
  reason: string | null;
}

export interface AirlineRulesResponse {
  rules: AirlineRule[];
  /** Airlines whose automation an admin switched off (the kill switch). */
  paused: AirlinePause[];
}

export interface AirlineRuleResponse {
  rule: AirlineRule;
}

/** `PUT /api/admin/airline-rules/airlines/{code}/automation` */
export interface AirlineAutomationResponse {
  airlineCode: string;
  enabled: boolean;
  /** Flights taken out of queued automatic work (switching off only). */
  droppedFlights: number;
}
