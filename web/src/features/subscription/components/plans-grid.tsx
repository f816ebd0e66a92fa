import { Badge, Card, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { UNLIMITED_FLIGHTS } from '@shared/constants.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryState } from '@/components/query-state/query-state';
import { formatMoney } from '@/lib/format';
import type { SubscriptionPlan } from '@/lib/plans';

/*
 * Plan prices are a year's price in cents. The comparison grid reads them per month (the year's
 * price over 12, to the cent) and gives the yearly figure beside it, as checkout and the landing
 * page say per year. A plan at 0 is 'Free', or 'Commission-based' when it takes a commission.
 */
export function planPriceLabel(plan: SubscriptionPlan): { main: string; per?: string; yearly?: string } {
  if (plan.price <= 0) return { main: plan.commissionRate > 0 ? 'Commission-based' : 'Free' };
  return {
    main: formatMoney(Math.round(plan.price / 12)),
    per: '/month',
    yearly: `${formatMoney(plan.price)} billed per year`,
  };
}

export function flightLimitLabel(plan: SubscriptionPlan): string {
  return plan.flightLimit === UNLIMITED_FLIGHTS
    ? 'Monitor unlimited flights'
    : `Monitor up to ${plan.flightLimit} flights`;
}

function PlanCard({ plan, current }: { plan: SubscriptionPlan; current: boolean }) {
  const price = planPriceLabel(plan);
  const titleId = `available-plan-${plan.id}`;
  return (
    <Card.Root
      as="article"
      aria-labelledby={titleId}
      variant="outline"
      borderColor={current ? 'brand.solid' : undefined}
      borderWidth={current ? '2px' : undefined}
    >
      <Card.Body gap="3">
        <HStack justify="space-between" gap="2" wrap="wrap">
          <Heading as="h4" size="sm" id={titleId}>
            {plan.name}
          </Heading>
          {current && (
            <Badge colorPalette="brand" variant="subtle">
              Current plan
            </Badge>
          )}
        </HStack>
        <Stack gap="0">
          <Text fontSize="2xl" fontWeight="bold">
            {price.main}
            {price.per && (
              <Text as="span" fontSize="md" fontWeight="normal" color="fg.muted">
                {price.per}
              </Text>
            )}
          </Text>
          {price.yearly && (
            <Text fontSize="sm" color="fg.muted">
              {price.yearly}
            </Text>
          )}
        </Stack>
        {plan.description && <Text color="fg.muted">{plan.description}</Text>}
        <Stack as="ul" listStyleType="disc" ps="5" gap="1">
          <li>{flightLimitLabel(plan)}</li>
          {plan.autoRebookingEnabled && <li>Automatic rebooking</li>}
          {plan.commissionRate > 0 && <li>{plan.commissionRate}% commission on airline credits</li>}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** 'Available Plans': one card per active plan, the traveller's own marked. */
export function PlansGrid({
  query,
  currentPlanId,
}: {
  query: UseQueryResult<SubscriptionPlan[]>;
  currentPlanId: number | undefined;
}) {
  return (
    <Stack as="section" aria-labelledby="available-plans" gap="4">
      <Heading as="h3" size="md" id="available-plans">
        Available Plans
      </Heading>
      <QueryState
        query={query}
        loadingLabel="Loading plans"
        skeleton={<Skeleton height="40" borderRadius="md" />}
        errorTitle="Plans could not be loaded"
        empty={{ when: (plans) => plans.length === 0, title: 'No plans available' }}
      >
        {(plans) => (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {plans.map((plan) => (
              <PlanCard key={plan.id} plan={plan} current={plan.id === currentPlanId} />
            ))}
          </SimpleGrid>
        )}
      </QueryState>
    </Stack>
  );
}
