import { Badge, Button, Flex, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { AIRLINE_RULE_MESSAGES } from '@shared/schemas/airline-rules.ts';
import type { AirlineRule } from '@shared/types/airline-rules.ts';
import { REBOOKING_MODES } from '@shared/types/flights.ts';
import { TableFrame } from '@/components/data-table/table-frame';
import { FormDialog } from '@/components/form/form-dialog';
import { NumberField } from '@/components/form/number-field';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { QueryState } from '@/components/query-state/query-state';
import { useZodForm } from '@/hooks/use-zod-form';
import { formatMoney } from '@/lib/format';
import { airlineRulesQueryOptions, useAirlineAutomation, useUpdateAirlineRule } from './airline-rules-api';

const MODE_TONES = { automatic: 'green', approval: 'orange', assisted: 'blue', none: 'gray' } as const;
const HEADERS = ['Airline', 'Fares', 'Valid', 'Mode', 'Change fee', 'Credit', 'Source', 'Actions'];

/** What the edit dialog changes; the rest of the rule is sent as it stands. */
const ruleEditSchema = z
  .object({
    rebookingMode: z.enum(REBOOKING_MODES),
    validFrom: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD'),
    validTo: z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Use a date as YYYY-MM-DD, or leave it empty'),
    changeFeeUsd: z.number().int().min(0, AIRLINE_RULE_MESSAGES.negativeFee).nullable(),
    creditValidMonths: z.number().int().min(1).max(120).nullable(),
    source: z.string().trim().min(1, 'Source is required').max(500),
  })
  .refine((r) => r.validTo === '' || r.validTo > r.validFrom, {
    path: ['validTo'],
    message: AIRLINE_RULE_MESSAGES.validTo,
  });

function RuleDialog({ rule, onClose }: { rule: AirlineRule; onClose: () => void }) {
  const update = useUpdateAirlineRule();
  const form = useZodForm(ruleEditSchema, {
    rebookingMode: rule.rebookingMode,
    validFrom: rule.validFrom,
    validTo: rule.validTo ?? '',
    changeFeeUsd: rule.changeFees.USD ?? null,
    creditValidMonths: rule.creditValidMonths,
    source: rule.source,
  });
  const onSubmit = form.handleSubmit((edit) => {
    const { id: _id, explanation: _explanation, updatedAt: _updatedAt, ...body } = rule;
    const changeFees = { ...body.changeFees };
    if (edit.changeFeeUsd === null) delete changeFees.USD;
    else changeFees.USD = edit.changeFeeUsd;
    update.mutate(
      {
        id: rule.id,
        body: {
          ...body,
          rebookingMode: edit.rebookingMode,
          validFrom: edit.validFrom,
          validTo: edit.validTo === '' ? null : edit.validTo,
          changeFees,
          creditValidMonths: edit.creditValidMonths,
          source: edit.source,
        },
      },
      { onSuccess: onClose, onError: form.showServerErrors },
    );
  });
  return (
    <FormDialog
      title={`Edit ${rule.airlineName} ${rule.fareLabel}`}
      submitLabel="Update Rule"
      busy={update.isPending}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <SelectField label="Mode" options={REBOOKING_MODES} {...form.field('rebookingMode')} />
      <TextField label="Valid from" required {...form.field('validFrom')} />
      <TextField label="Valid to" hint="Empty while in force" {...form.field('validTo')} />
      <NumberField
        label="Change fee in USD (cents)"
        min={0}
        step={1}
        hint="Empty: the fee the fare source quotes"
        {...form.numberField('changeFeeUsd')}
      />
      <NumberField
        label="Credit valid (months)"
        min={1}
        max={120}
        step={1}
        {...form.numberField('creditValidMonths')}
      />
      <TextField label="Source" required {...form.field('source')} />
    </FormDialog>
  );
}

function credit(rule: AirlineRule): string {
  if (rule.refundForm === 'cash') return 'Refund';
  if (rule.refundForm === 'none') return 'Nothing';
  const months = rule.creditValidMonths === null ? '' : `, ${rule.creditValidMonths} months`;
  return `${rule.creditName ?? 'Airline credit'}${months}`;
}

/**
 * The airline rulebook (public.airline_rules): what each airline allows when a fare drops and how
 * FareBack may act, each row with its source; 'Edit' per rule and, per airline, the kill switch.
 */
export function AdminAirlineRulesTab() {
  const query = useQuery(airlineRulesQueryOptions());
  const automation = useAirlineAutomation();
  const [editing, setEditing] = useState<AirlineRule | null>(null);
  return (
    <Stack gap="4">
      <Text color="fg.muted" fontSize="sm">
        What each airline allows when a fare drops, and how FareBack may act: automatic, with the traveller&apos;s
        approval, guided (assisted), or not at all. Pausing an airline stops every automatic change for it at once.
      </Text>
      <QueryState
        query={query}
        loadingLabel="Loading airline rules"
        skeleton={<Skeleton height="40" borderRadius="md" />}
        errorTitle="Error loading airline rules"
        errorFallback="Unable to load the airline rules. Please try again later."
      >
        {({ rules, paused }) => {
          const pausedCodes = new Set(paused.map((p) => p.airlineCode));
          return (
            <TableFrame label="Airline Rules">
              <Table.Root size="sm">
                <Table.Caption srOnly>Airline Rules</Table.Caption>
                <Table.Header>
                  <Table.Row bg="bg.subtle">
                    {HEADERS.map((h) => (
                      <Table.ColumnHeader key={h} whiteSpace="nowrap">
                        {h}
                      </Table.ColumnHeader>
                    ))}
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {rules.map((rule) => {
                    const isPaused = pausedCodes.has(rule.airlineCode);
                    return (
                      <Table.Row key={rule.id}>
                        <Table.Cell minW="32">
                          <Text fontWeight="medium">{rule.airlineName}</Text>
                          <Text fontSize="xs" color="fg.muted">
                            {rule.airlineCode === '*' ? 'Every other airline' : rule.airlineCode}
                          </Text>
                        </Table.Cell>
                        <Table.Cell minW="40">{rule.fareLabel}</Table.Cell>
                        <Table.Cell whiteSpace="nowrap">
                          {rule.validFrom} to {rule.validTo ?? 'now'}
                        </Table.Cell>
                        <Table.Cell>
                          <Flex gap="1" wrap="wrap">
                            <Badge colorPalette={MODE_TONES[rule.rebookingMode]}>{rule.rebookingMode}</Badge>
                            {isPaused && <Badge colorPalette="red">paused</Badge>}
                          </Flex>
                        </Table.Cell>
                        <Table.Cell whiteSpace="nowrap">
                          {rule.changeFees.USD === undefined ? 'As quoted' : formatMoney(rule.changeFees.USD)}
                        </Table.Cell>
                        <Table.Cell minW="32">{credit(rule)}</Table.Cell>
                        <Table.Cell minW="64">
                          <Text fontSize="xs" lineClamp={3} title={rule.explanation}>
                            {rule.source}
                          </Text>
                        </Table.Cell>
                        <Table.Cell>
                          <Flex gap="2">
                            <Button
                              size="xs"
                              variant="outline"
                              aria-label={`Edit ${rule.airlineName} ${rule.fareLabel}`}
                              onClick={() => setEditing(rule)}
                            >
                              Edit
                            </Button>
                            {rule.airlineCode !== '*' && rule.farePattern === '*' && (
                              <Button
                                size="xs"
                                variant={isPaused ? 'solid' : 'outline'}
                                colorPalette={isPaused ? 'green' : 'red'}
                                loading={automation.isPending && automation.variables.code === rule.airlineCode}
                                onClick={() => automation.mutate({ code: rule.airlineCode, enabled: isPaused })}
                              >
                                {isPaused ? 'Resume automation' : 'Pause automation'}
                              </Button>
                            )}
                          </Flex>
                        </Table.Cell>
                      </Table.Row>
                    );
                  })}
                </Table.Body>
              </Table.Root>
            </TableFrame>
          );
        }}
      </QueryState>
      {editing && <RuleDialog rule={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
