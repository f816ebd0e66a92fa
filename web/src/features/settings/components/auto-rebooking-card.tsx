import { Box, Button, Stack, Text } from '@chakra-ui/react';
import type { QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { SwitchField } from '@/components/form/switch-field';
import type { ExecuteAutoRebookingResponse } from '@shared/types/auto-rebooking.ts';
import { useExecuteAutoRebooking, useToggleAutoRebooking } from '../api';
import { PremiumNotice } from './premium-notice';
import { SettingsCard } from './settings-card';

interface AutoRebookingCardProps {
  autoRebooking: boolean;
  premium: boolean;
  onUpgrade: () => void;
  refreshAfterRun: readonly QueryKey[];
}

/**
 * 'Auto-Rebooking Settings': the switch moves at once and the change is posted; a failure puts it
 * back (the toast is the mutation's). Turning it on needs premium, so a free traveller sees it
 * disabled with the way to upgrade. The run-check action runs the traveller's own evaluation now
 * and shows what it did.
 */
export function AutoRebookingCard({ autoRebooking, premium, onUpgrade, refreshAfterRun }: AutoRebookingCardProps) {
  const toggle = useToggleAutoRebooking();
  const run = useExecuteAutoRebooking(refreshAfterRun);
  const [enabled, setEnabled] = useState(autoRebooking);
  const [result, setResult] = useState<ExecuteAutoRebookingResponse | null>(null);

  // the stored value wins whenever no change of ours is on its way (the user is polled)
  const saving = toggle.isPending;
  useEffect(() => {
    if (!saving) setEnabled(autoRebooking);
  }, [autoRebooking, saving]);

  const onCheckedChange = (checked: boolean) => {
    if (checked && !premium) return;
    const previous = enabled;
    setEnabled(checked);
    toggle.mutate({ enabled: checked }, { onError: () => setEnabled(previous) });
  };

  const runCheck = () => {
    setResult(null);
    run.mutate(undefined, { onSuccess: setResult });
  };

  return (
    <SettingsCard
      title="Auto-Rebooking Settings"
      description="When a fare drops on an eligible ticket and the savings meet your thresholds, we rebook it for you and the airline credits the difference."
    >
      <Stack gap="5">
        <SwitchField
          label="Automatic rebooking"
          name="autoRebooking"
          checked={enabled}
          onCheckedChange={onCheckedChange}
          disabled={!premium}
          hint={
            enabled ? 'On: qualifying price drops are rebooked automatically.' : 'Off: you rebook price drops yourself.'
          }
        />
        {!premium && (
          <PremiumNotice onUpgrade={onUpgrade}>
            Automatic rebooking is a Premium feature. Upgrade to have qualifying price drops rebooked for you.
          </PremiumNotice>
        )}
        {premium && (
          <Stack gap="3" align="flex-start">
            <Text color="fg.muted" fontSize="sm">
              Checks run after every price sweep. You can also run one for your flights now.
            </Text>
            <Button
              variant="outline"
              onClick={runCheck}
              loading={run.isPending}
              loadingText="Running check..."
              disabled={!enabled}
              width={{ base: 'full', sm: 'auto' }}
            >
              Run Auto-Rebooking Check
            </Button>
            {!enabled && (
              <Text fontSize="sm" color="fg.muted">
                Turn on automatic rebooking to run a check.
              </Text>
            )}
            {result && (
              <Box role="status" borderWidth="1px" borderRadius="md" px="4" py="3" width="full">
                <Text fontWeight="medium">{result.message}</Text>
                <Text color="fg.muted" fontSize="sm">
                  Flights rebooked: {result.count}
                </Text>
              </Box>
            )}
          </Stack>
        )}
      </Stack>
    </SettingsCard>
  );
}
