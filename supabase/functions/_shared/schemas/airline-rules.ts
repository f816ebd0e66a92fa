// The airline rulebook's admin edits (`POST /api/admin/airline-rules`, `PUT .../{id}`) and the
// kill switch (`PUT /api/admin/airline-rules/airlines/{code}/automation`). One schema drives the
// admin form and the request; the database holds the same bounds (public.airline_rules' checks)
// and refuses overlapping validity (400 on validTo).
import { z } from 'zod';
import { REBOOKING_MODES } from '../types/flights.ts';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD');
const text = (max: number, label: string) =>
  z.string().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

export const AIRLINE_RULE_MESSAGES = {
  negativeFee: 'Change fee cannot be below 0',
  validTo: 'Valid to must be after valid from',
  overlap: 'Another rule for this airline and fare pattern is in force for part of these dates',
  badPattern: 'Fare pattern must be * or a valid regular expression',
} as const;

export const airlineRuleInputSchema = z
  .strictObject({
    airlineCode: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z0-9]{2}|\*)$/, 'Airline code must be a 2-character IATA code or *'),
    airlineName: text(100, 'Airline name'),
    farePattern: text(200, 'Fare pattern'),
    fareLabel: text(100, 'Fare label'),
    validFrom: day,
    validTo: day.nullable(),
    changeAllowed: z.boolean().nullable(),
    changeFees: z.record(
      z.string().regex(/^[A-Z]{3}$/, 'Currency must be a 3-letter code'),
      z.number().int('Change fee must be whole cents').min(0, AIRLINE_RULE_MESSAGES.negativeFee).max(1_000_000),
    ),
    refundForm: z.enum(['credit', 'cash', 'none']),
    creditName: z.string().trim().max(60).nullable(),
    creditValidMonths: z.number().int().min(1).max(120).nullable(),
    creditTransferable: z.boolean(),
    rebookingMode: z.enum(REBOOKING_MODES),
    source: text(500, 'Source'),
    note: z.string().trim().max(500).nullable(),
  })
  .refine((r) => r.validTo === null || r.validTo > r.validFrom, {
    path: ['validTo'],
    message: AIRLINE_RULE_MESSAGES.validTo,
  });
export type AirlineRuleInput = z.input<typeof airlineRuleInputSchema>;
export type AirlineRuleBody = z.output<typeof airlineRuleInputSchema>;

export const airlineAutomationInputSchema = z.strictObject({
  enabled: z.boolean(),
  reason: z.string().trim().max(500).nullable().optional(),
});
export type AirlineAutomationInput = z.input<typeof airlineAutomationInputSchema>;
