import { Badge, Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { CurrentUser } from '@/lib/auth';
import { formatDate, formatMoney } from '@/lib/format';
import type { SubscriptionPlan } from '@/lib/plans';
import type { CurrentSubscription } from '@shared/types/billing.ts';
import type { ReactNode } from 'react';
import { PaymentsUnavailableNotice } from './card-payment';

interface SubscriptionCardProps {
  user: CurrentUser;
  premium: boolean;
  /** The plan the traveller is on, when known: its commission rate is the fee shown. */
  plan: SubscriptionPlan | undefined;
  subscription: CurrentSubscription | undefined;
  onUpgrade: () => void;
  onDowngrade: () => void;
  /** Renewal back on while a downgrade is scheduled. */
  onKeepPremium: () => void;
  keepingPremium: boolean;
  /** The card used for renewals and statements (shown once one is saved, or a payment failed). */
  cardAction: ReactNode;
}

function Feature({ name, value, detail }: { name: string; value: string; detail?: string }) {
  return (
    <Stack
      as="li"
      gap="0.5"
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      direction={{ base: 'column', sm: 'row' }}
      justify="space-between"
    >
      <Text fontWeight="medium">{name}</Text>
      <Stack gap="0" textAlign={{ base: 'start', sm: 'end' }}>
        <Text>{value}</Text>
        {detail && (
          <Text fontSize="sm" color="fg.muted">
            {detail}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}

/** When a premium subscription renews (and for how much) or ends, as the traveller should read it. */
function renewalLine(subscription: CurrentSubscription | undefined): string | null {
  if (!subscription) return null;
  if (subscription.status === 'past_due') return 'Your renewal payment failed: update your card to keep Premium.';
  if (subscription.renewal) {
    return `Renews on ${formatDate(subscription.renewal.date)} for ${formatMoney(subscription.renewal.amount)} a year.`;
  }
  if (subscription.scheduledChange) {
    return `Premium until ${formatDate(subscription.scheduledChange.at)}, then the Free plan: renewal is off.`;
  }
  if (!subscription.endDate) return null;
  return `Paid through ${formatDate(subscription.endDate)}; it does not renew.`;
}

/** 'Your Subscription': the tier, what it includes, and the one change it allows. */
export function SubscriptionCard({
  user,
  premium,
  plan,
  subscription,
  onUpgrade,
  onDowngrade,
  onKeepPremium,
  keepingPremium,
  cardAction,
}: SubscriptionCardProps) {
  const rate = plan?.commissionRate ?? 0;
  const renewal = premium ? renewalLine(subscription) : null;
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Heading as="h3" size="md">
            Your Subscription
          </Heading>
          <Badge colorPalette={premium ? 'brand' : 'gray'} variant={premium ? 'solid' : 'subtle'} size="md">
            {premium ? 'Premium' : 'Free'}
          </Badge>
        </HStack>
      </Card.Header>
      <Card.Body gap="4">
        <Stack as="ul" listStyleType="none" gap="0" aria-label="Plan features">
          <Feature
            name="Auto Rebooking"
            value={premium ? 'Included' : 'Premium Only'}
            detail={
              premium
                ? user.autoRebooking
                  ? 'Currently enabled - Auto-rebooking active'
                  : 'Currently disabled - Enable in settings'
                : undefined
            }
          />
          <Feature name="Commission Fee" value={premium && rate > 0 ? `${rate}%` : 'N/A'} />
          <Feature name="Flight Monitoring" value="Included" />
          <Feature name="Email Notifications" value="Included" />
        </Stack>
        {renewal && (
          <Text fontSize="sm" color="fg.muted">
            {renewal}
          </Text>
        )}
      </Card.Body>
      <Card.Footer gap="3" flexWrap="wrap">
        {premium ? (
          <>
            {subscription?.scheduledChange && (
              <Button onClick={onKeepPremium} loading={keepingPremium} loadingText="Saving...">
                Keep Premium (renew)
              </Button>
            )}
            <Button variant="outline" onClick={onDowngrade}>
              {subscription?.scheduledChange ? 'Downgrade now' : 'Downgrade to Free'}
            </Button>
          </>
        ) : subscription?.paymentMode === 'unavailable' ? (
          <PaymentsUnavailableNotice />
        ) : (
          <Button onClick={onUpgrade}>Upgrade to Premium</Button>
        )}
        {cardAction}
      </Card.Footer>
    </Card.Root>
  );
}
