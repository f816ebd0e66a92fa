import { Alert, Button, Stack } from '@chakra-ui/react';

interface PremiumNoticeProps {
  children: string;
  onUpgrade: () => void;
}

/** Shown on a card whose controls only premium travellers may use: why, and the way to upgrade. */
export function PremiumNotice({ children, onUpgrade }: PremiumNoticeProps) {
  return (
    <Alert.Root status="info" variant="subtle" borderRadius="md">
      <Alert.Indicator />
      <Stack gap="2" align="flex-start" flex="1">
        <Alert.Description>{children}</Alert.Description>
        <Button size="sm" variant="outline" onClick={onUpgrade}>
          Upgrade to Premium
        </Button>
      </Stack>
    </Alert.Root>
  );
}
