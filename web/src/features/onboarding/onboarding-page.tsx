import { Alert, Box, Button, Card, Heading, HStack, Progress, SimpleGrid, Stack, Tabs, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { PageSpinner } from '@/components/ui/page-spinner';
import { notify } from '@/components/ui/toaster';
import { useCurrentUser } from '@/lib/auth';
import { useCompleteOnboarding } from './api';

const STEPS = 3;

export interface OnboardingPageProps {
  /** Step 1's 'Connect Gmail' (and, where offered, the development toggle). */
  connectEmail: ReactNode;
  /** Step 2's 'Manual Entry' tab: the flight form; `onAdded` moves on to the last step. */
  manualEntry: (onAdded: () => void) => ReactNode;
  /** Step 2's 'From Email' tab: the inbox scan's progress. */
  emailImport: ReactNode;
}

/**
 * /onboarding: three steps with a progress bar (step/3). A user whose email is already connected
 * starts at step 2. 'Go to Dashboard' (and 'Skip setup') is remembered on the account, so new
 * accounts are sent here by /dashboard only until then.
 */
export function OnboardingPage({ connectEmail, manualEntry, emailImport }: OnboardingPageProps) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending || !user) return <PageSpinner label="Loading your onboarding..." />;
  return (
    <Wizard
      connected={user.emailConnected}
      connectEmail={connectEmail}
      manualEntry={manualEntry}
      emailImport={emailImport}
    />
  );
}

function Wizard({ connected, connectEmail, manualEntry, emailImport }: OnboardingPageProps & { connected: boolean }) {
  const [step, setStep] = useState(connected ? 2 : 1);
  const complete = useCompleteOnboarding();
  const navigate = useNavigate();

  const finish = (toast: boolean) =>
    complete.mutate(undefined, {
      onSuccess: () => {
        if (toast) {
          notify({
            title: 'Onboarding Complete!',
            description: 'FareBack is now watching your flights for price drops.',
            status: 'success',
          });
        }
        void navigate('/dashboard');
      },
    });

  return (
    <ContentLayout
      title="Welcome to FareBack"
      description="Three quick steps to start saving on the flights you've booked."
      actions={
        step < STEPS ? (
          <Button variant="ghost" size="sm" onClick={() => finish(false)} loading={complete.isPending}>
            Skip setup
          </Button>
        ) : null
      }
    >
      <Stack gap="6" maxW="3xl">
        <Stack gap="2">
          <Text fontSize="sm" color="fg.muted">
            Step {step} of {STEPS}
          </Text>
          <Progress.Root value={(step / STEPS) * 100} max={100} colorPalette="brand" size="sm">
            <Progress.Track aria-label={`Step ${step} of ${STEPS}`}>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>

        {step === 1 && (
          <Card.Root variant="outline">
            <Card.Header>
              <Heading as="h2" size="lg">
                Connect Your Email
              </Heading>
              <Text color="fg.muted">
                FareBack finds your flight confirmations in your inbox (read-only) and starts watching their prices.
              </Text>
            </Card.Header>
            <Card.Body gap="4">
              {connected ? (
                <Alert.Root status="success" borderRadius="md">
                  <Alert.Indicator />
                  <Alert.Title>Email Connected</Alert.Title>
                </Alert.Root>
              ) : (
                connectEmail
              )}
            </Card.Body>
            <Card.Footer>
              <Stack direction={{ base: 'column-reverse', sm: 'row' }} justify="space-between" w="full" gap="3">
                <Button variant="ghost" onClick={() => setStep(2)}>
                  Skip Email Connection
                </Button>
                <Button colorPalette="brand" disabled={!connected} onClick={() => setStep(2)}>
                  {connected ? 'Continue' : 'Connect to Continue'}
                </Button>
              </Stack>
            </Card.Footer>
          </Card.Root>
        )}

        {step === 2 && (
          <Card.Root variant="outline">
            <Card.Header>
              <Heading as="h2" size="lg">
                Add Your First Flight
              </Heading>
              <Text color="fg.muted">Add a flight you&apos;ve booked, or let your inbox scan find them.</Text>
            </Card.Header>
            <Card.Body>
              <Tabs.Root defaultValue="manual" variant="line" lazyMount>
                <Tabs.List>
                  <Tabs.Trigger value="manual">Manual Entry</Tabs.Trigger>
                  <Tabs.Trigger value="email" disabled={!connected}>
                    {connected ? 'From Email' : 'Connect Email First'}
                  </Tabs.Trigger>
                </Tabs.List>
                <Tabs.Content value="manual" pt="5">
                  <Stack gap="4">
                    {manualEntry(() => setStep(3))}
                    <Box>
                      <Button variant="ghost" onClick={() => setStep(3)}>
                        Skip for Now
                      </Button>
                    </Box>
                  </Stack>
                </Tabs.Content>
                <Tabs.Content value="email" pt="5">
                  <Stack gap="4">
                    <Text>
                      Your inbox scan runs in the background: the flights it finds appear on your dashboard as it goes,
                      so there is no need to wait here.
                    </Text>
                    {emailImport}
                    <Box>
                      <Button variant="outline" onClick={() => setStep(3)}>
                        Continue Without Waiting
                      </Button>
                    </Box>
                  </Stack>
                </Tabs.Content>
              </Tabs.Root>
            </Card.Body>
            <Card.Footer>
              <HStack justify="space-between" w="full" wrap="wrap" gap="3">
                <Button variant="ghost" onClick={() => setStep(1)}>
                  Back
                </Button>
                <Button colorPalette="brand" onClick={() => setStep(3)}>
                  Continue to Final Step
                </Button>
              </HStack>
            </Card.Footer>
          </Card.Root>
        )}

        {step === 3 && (
          <Card.Root variant="outline">
            <Card.Header>
              <Heading as="h2" size="lg">
                You&apos;re All Set!
              </Heading>
              <Text color="fg.muted">Here is what FareBack does for you from now on.</Text>
            </Card.Header>
            <Card.Body>
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                <FeatureCard title="Price Monitoring">
                  We check the prices of your flights and tell you when they drop.
                </FeatureCard>
                <FeatureCard title="Auto-Rebooking">
                  With Premium, we rebook eligible flights at the lower price for you (premium needed).
                </FeatureCard>
                <FeatureCard title="Email Scanning">
                  New confirmations in your inbox, or forwarded to your private address, become watched flights.
                </FeatureCard>
              </SimpleGrid>
            </Card.Body>
            <Card.Footer>
              <HStack justify="space-between" w="full" wrap="wrap" gap="3">
                <Button variant="ghost" onClick={() => setStep(2)}>
                  Back
                </Button>
                <Button colorPalette="brand" onClick={() => finish(true)} loading={complete.isPending}>
                  Go to Dashboard
                </Button>
              </HStack>
            </Card.Footer>
          </Card.Root>
        )}
      </Stack>
    </ContentLayout>
  );
}

function FeatureCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root variant="subtle" size="sm">
      <Card.Body gap="2">
        <Heading as="h3" size="sm">
          {title}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {children}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
