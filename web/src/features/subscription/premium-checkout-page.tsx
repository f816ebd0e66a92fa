import { Alert, Button, Card, Flex, Heading, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { ErrorState } from '@/components/query-state/query-state';
import { CheckList } from '@/components/ui/check-list';
import { PageSpinner } from '@/components/ui/page-spinner';
import { notify } from '@/components/ui/toaster';
import { isPremium, useCurrentUser } from '@/lib/auth';
import { formatMoney } from '@/lib/format';
import { plansQueryOptions, premiumPlan, type SubscriptionPlan } from '@/lib/plans';
import { useCheckoutSession, useCurrentSubscription, type ConfirmPaymentToasts } from './api';
import { PaymentsUnavailableNotice, TestModeNotice, TestModePayment } from './components/card-payment';

/** After a successful subscription the traveller goes to the dashboard this much later. */
export const SUBSCRIPTION_SUCCESS_REDIRECT_MS = 1500;

const CHECKOUT_TOASTS: ConfirmPaymentToasts = {
  declinedTitle: 'Subscription Failed',
  declinedFallback: 'There was an error processing your subscription.',
  errorTitle: 'Error',
  errorFallback: 'Failed to process your subscription.',
};

const HOW_IT_WORKS = [
  { title: 'Subscribe', text: 'Pay once for the year. Premium starts as soon as the payment goes through.' },
  {
    title: 'Set Your Thresholds',
    text: 'Choose how much a fare has to drop before FareBack rebooks for you, in the Settings tab.',
  },
  {
    title: 'Enjoy Savings',
    text: 'We watch every flight and rebook automatically; the difference comes back as credit.',
  },
];

function features(plan: SubscriptionPlan): string[] {
  return [
    'Unlimited flight monitoring',
    'Automatic price drop detection',
    'Auto-rebooking when savings exceed your threshold',
    'Customizable rebooking thresholds',
    'Priority email notifications',
    `Only pay ${plan.commissionRate}% commission on actual savings`,
  ];
}

/**
 * The plan offered: `?plan=<id>` names one of the active paid plans (a link to a plan no longer
 * offered selects none: 'No Plan Selected'); without it the premium offer (by tier, whatever its name).
 */
function selectedPlan(plans: SubscriptionPlan[], planParam: string | null): SubscriptionPlan | undefined {
  if (planParam === null) return premiumPlan(plans);
  return plans.find((plan) => String(plan.id) === planParam && plan.price > 0);
}

function ReturnToDashboard({ variant = 'outline' }: { variant?: 'outline' | 'ghost' }) {
  return (
    <Button asChild variant={variant}>
      <RouterLink to="/dashboard">Return to Dashboard</RouterLink>
    </Button>
  );
}

function Notice({ title, description, children }: { title: string; description: string; children?: React.ReactNode }) {
  return (
    <Stack gap="4" maxW="2xl">
      <Alert.Root status="warning" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{title}</Alert.Title>
          <Alert.Description>{description}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <HStack gap="3" wrap="wrap">
        {children}
        <ReturnToDashboard />
      </HStack>
    </Stack>
  );
}

function HowItWorks() {
  return (
    <Stack as="section" aria-labelledby="checkout-how" gap="4">
      <Heading as="h2" size="lg" id="checkout-how">
        How It Works
      </Heading>
      <SimpleGrid as="ol" listStyleType="none" columns={{ base: 1, md: 3 }} gap="4">
        {HOW_IT_WORKS.map((step, index) => (
          <Stack as="li" key={step.title} gap="2" p="5" borderWidth="1px" borderRadius="lg" bg="bg">
            <Flex
              align="center"
              justify="center"
              boxSize="8"
              borderRadius="full"
              bg="brand.solid"
              color="brand.contrast"
              fontWeight="bold"
              aria-hidden="true"
            >
              {index + 1}
            </Flex>
            <Heading as="h3" size="sm">
              {step.title}
            </Heading>
            <Text color="fg.muted">{step.text}</Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * /premium-checkout: the premium plan, its price per year and what it includes; 'Secure Checkout'
 * starts a checkout session and follows its address (Stripe Checkout, or in the local test mode
 * this page again with `?test_payment=<id>`, where the payment is confirmed without a card).
 * A premium traveller is told 'Already Subscribed' and sent to the dashboard; after a successful
 * subscription the dashboard follows 1.5 s later.
 */
export function PremiumCheckoutPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const testPayment = params.get('test_payment');
  const { data: user } = useCurrentUser();
  const plans = useQuery(plansQueryOptions());
  const subscription = useCurrentSubscription();
  const checkout = useCheckoutSession();
  const [subscribed, setSubscribed] = useState(false);
  const told = useRef(false);

  const alreadyPremium = isPremium(user) && !subscribed;
  useEffect(() => {
    if (!alreadyPremium || told.current) return;
    told.current = true;
    notify({ title: 'Already Subscribed', description: 'You are already a premium subscriber.', status: 'info' });
    void navigate('/dashboard', { replace: true });
  }, [alreadyPremium, navigate]);

  useEffect(() => {
    if (!subscribed) return;
    const timer = setTimeout(() => void navigate('/dashboard'), SUBSCRIPTION_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [subscribed, navigate]);

  const onSubscribed = () => {
    notify({
      title: 'Subscription Successful',
      description: 'Your premium subscription has been activated.',
      status: 'success',
    });
    setSubscribed(true);
  };

  let content: React.ReactNode;
  if (plans.isPending || !user || alreadyPremium) {
    content = <PageSpinner label="Loading checkout..." compact />;
  } else if (plans.isError) {
    content = (
      <ErrorState
        title="Plans could not be loaded"
        error={plans.error}
        onRetry={() => void plans.refetch()}
        retrying={plans.isFetching}
      />
    );
  } else if (!premiumPlan(plans.data)) {
    content = (
      <Notice
        title="Subscription Unavailable"
        description="Premium subscription is currently unavailable. Please try again later."
      />
    );
  } else {
    const plan = selectedPlan(plans.data, params.get('plan'));
    const testMode = subscription.data?.paymentMode === 'test';

    const onCheckout = () => {
      if (!plan) {
        notify({ title: 'No Plan Selected', description: 'Please select a subscription plan.', status: 'error' });
        return;
      }
      checkout.mutate(
        { planId: plan.id },
        {
          onSuccess: ({ url }) => {
            const target = new URL(url, window.location.origin);
            // The local test mode comes back to this app: stay in it. Stripe Checkout is elsewhere.
            if (target.origin === window.location.origin) void navigate(`${target.pathname}${target.search}`);
            else window.location.assign(target.href);
          },
        },
      );
    };

    content = !plan ? (
      <Notice title="No Plan Selected" description="Please select a subscription plan.">
        <Button asChild>
          <RouterLink to="/premium-checkout">Choose Premium</RouterLink>
        </Button>
      </Notice>
    ) : (
      <Stack gap="10">
        {params.get('checkout') === 'cancelled' && !testPayment && (
          <Alert.Root status="info">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Checkout was cancelled</Alert.Title>
              <Alert.Description>Nothing was charged. You can check out again whenever you like.</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <SimpleGrid columns={{ base: 1, lg: 5 }} gap="6" alignItems="start">
          <Card.Root variant="outline" gridColumn={{ lg: 'span 3' }}>
            <Card.Header>
              <Heading as="h2" size="lg">
                {plan.name}
              </Heading>
              {plan.description && <Text color="fg.muted">{plan.description}</Text>}
            </Card.Header>
            <Card.Body gap="5">
              <Text>
                <Text as="span" fontSize="4xl" fontWeight="bold" letterSpacing="tight">
                  {formatMoney(plan.price)}
                </Text>{' '}
                <Text as="span" color="fg.muted" fontSize="lg">
                  per year
                </Text>
              </Text>
              <CheckList items={features(plan)} aria-label="What Premium includes" />
            </Card.Body>
          </Card.Root>

          <Card.Root variant="outline" gridColumn={{ lg: 'span 2' }}>
            <Card.Header>
              <Heading as="h2" size="md">
                {testPayment ? 'Confirm your payment' : 'Order summary'}
              </Heading>
            </Card.Header>
            <Card.Body gap="4">
              <HStack justify="space-between" align="baseline" gap="4">
                <Stack gap="0">
                  <Text fontWeight="semibold">Total</Text>
                  <Text fontSize="sm" color="fg.muted">
                    Billed annually
                  </Text>
                </Stack>
                <Text fontSize="2xl" fontWeight="bold">
                  {formatMoney(plan.price)}
                </Text>
              </HStack>
              {testPayment ? (
                subscribed ? (
                  <Alert.Root status="success">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>Premium is active</Alert.Title>
                      <Alert.Description>Taking you to your dashboard...</Alert.Description>
                    </Alert.Content>
                  </Alert.Root>
                ) : (
                  <TestModePayment
                    intent={{ paymentIntentId: testPayment }}
                    amount={plan.price}
                    toasts={CHECKOUT_TOASTS}
                    onPaid={onSubscribed}
                  />
                )
              ) : subscription.data?.paymentMode === 'unavailable' ? (
                <PaymentsUnavailableNotice />
              ) : (
                <>
                  {testMode && <TestModeNotice />}
                  <Button size="lg" onClick={onCheckout} loading={checkout.isPending} loadingText="Processing...">
                    Secure Checkout
                  </Button>
                </>
              )}
              <ReturnToDashboard variant="ghost" />
              <Text fontSize="sm" color="fg.muted">
                By subscribing you agree to our{' '}
                <Link asChild variant="underline">
                  <RouterLink to="/terms">Terms of Service</RouterLink>
                </Link>{' '}
                and{' '}
                <Link asChild variant="underline">
                  <RouterLink to="/privacy">Privacy Policy</RouterLink>
                </Link>
                . Premium renews every year at the plan price until you cancel. You can cancel any time from the
                Subscription tab: at the end of the paid year (Premium stays until then and does not renew) or now
                (Premium ends at once, with no refund).
              </Text>
            </Card.Body>
          </Card.Root>
        </SimpleGrid>
        <HowItWorks />
      </Stack>
    );
  }

  return (
    <ContentLayout
      title="Upgrade to Premium"
      description="Unlimited monitoring and automatic rebooking when prices drop."
    >
      {content}
    </ContentLayout>
  );
}
