import { Badge, Button, Flex, Skeleton, Stack, Table, Text, Wrap } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LuPlus } from 'react-icons/lu';
import { UNLIMITED_FLIGHTS } from '@shared/constants.ts';
import type { AdminSubscriptionPlan } from '@shared/types/admin.ts';
import { TableFrame } from '@/components/data-table/table-frame';
import { QueryState } from '@/components/query-state/query-state';
import { formatMoney } from '@/lib/format';
import { PlanFormDialog } from './plan-form-dialog';
import { adminPlansQueryOptions } from './plans-api';

/** Spec: 'Auto-Rebooking' if enabled, '{rate}% Commission' if a rate is set, then the flight limit. */
export function planFeatures(
  plan: Pick<AdminSubscriptionPlan, 'autoRebookingEnabled' | 'commissionRate' | 'flightLimit'>,
) {
  const features: string[] = [];
  if (plan.autoRebookingEnabled) features.push('Auto-Rebooking');
  if (plan.commissionRate > 0) features.push(`${plan.commissionRate}% Commission`);
  features.push(plan.flightLimit === UNLIMITED_FLIGHTS ? 'Unlimited Flights' : `${plan.flightLimit} Flights`);
  return features;
}

const HEADERS = ['ID', 'Name', 'Price', 'Flight Limit', 'Features', 'Actions'];

function PlansTable({
  plans,
  onEdit,
}: {
  plans: AdminSubscriptionPlan[];
  onEdit: (plan: AdminSubscriptionPlan) => void;
}) {
  return (
    <TableFrame label="Subscription Plans">
      <Table.Root size="sm" interactive>
        <Table.Caption srOnly>Subscription Plans</Table.Caption>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {HEADERS.map((header) => (
              <Table.ColumnHeader
                key={header}
                whiteSpace="nowrap"
                textAlign={header === 'Price' || header === 'Flight Limit' ? 'end' : 'start'}
              >
                {header}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {plans.map((plan) => (
            <Table.Row key={plan.id} color={plan.isActive ? undefined : 'fg.muted'}>
              <Table.Cell>{plan.id}</Table.Cell>
              <Table.Cell minW="40">
                <Stack gap="0.5">
                  <Flex gap="2" align="center" wrap="wrap">
                    <Text fontWeight="medium">{plan.name}</Text>
                    {!plan.isActive && (
                      <Badge variant="outline" colorPalette="gray">
                        Inactive
                      </Badge>
                    )}
                  </Flex>
                  {plan.description && (
                    <Text fontSize="xs" color="fg.muted" lineClamp={2}>
                      {plan.description}
                    </Text>
                  )}
                </Stack>
              </Table.Cell>
              <Table.Cell textAlign="end">{formatMoney(plan.price)}</Table.Cell>
              <Table.Cell textAlign="end">
                {plan.flightLimit === UNLIMITED_FLIGHTS ? 'Unlimited' : plan.flightLimit}
              </Table.Cell>
              <Table.Cell minW="48">
                <Wrap gap="1">
                  {planFeatures(plan).map((feature) => (
                    <Badge key={feature} variant="subtle" colorPalette="brand">
                      {feature}
                    </Badge>
                  ))}
                </Wrap>
              </Table.Cell>
              <Table.Cell>
                <Button size="xs" variant="outline" aria-label={`Edit ${plan.name}`} onClick={() => onEdit(plan)}>
                  Edit
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

/**
 * Every subscription plan (a few rows: no paging), inactive ones marked; 'Add Plan' and each
 * row's 'Edit' open the one plan form.
 */
export function AdminPlansTab() {
  const plans = useQuery(adminPlansQueryOptions());
  // the plan being edited; 'new' while adding one
  const [editing, setEditing] = useState<AdminSubscriptionPlan | 'new' | null>(null);
  return (
    <Stack gap="4">
      <Flex
        justify="space-between"
        align={{ base: 'stretch', sm: 'center' }}
        gap="3"
        direction={{ base: 'column', sm: 'row' }}
      >
        <Text color="fg.muted" fontSize="sm">
          What travellers can subscribe to: prices in cents, commission in percent of the airline credit.
        </Text>
        <Button colorPalette="brand" onClick={() => setEditing('new')} flexShrink={0}>
          <LuPlus aria-hidden /> Add Plan
        </Button>
      </Flex>
      <QueryState
        query={plans}
        loadingLabel="Loading plans"
        skeleton={<Skeleton height="40" borderRadius="md" />}
        errorTitle="Error loading plans"
        errorFallback="Unable to load subscription plan data. Please try again later."
        empty={{
          when: (list) => list.length === 0,
          title: 'No plans yet',
          description: 'Add the first plan travellers can subscribe to.',
        }}
      >
        {(list) => <PlansTable plans={list} onEdit={setEditing} />}
      </QueryState>
      {editing && <PlanFormDialog plan={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
