import { Center, Spinner, Stack, Text } from '@chakra-ui/react';

/**
 * A centred spinner for a page or route that is loading; `label` is shown and announced.
 * `compact` for use inside a card rather than as the whole page.
 *
 * As the whole page it fills the screen below the header, so the footer stays below the fold
 * until the page arrives: a footer shown under a short spinner and pushed down by the page was
 * the dashboard's layout shift on a phone (issue 26).
 */
export function PageSpinner({ label = 'Loading...', compact = false }: { label?: string; compact?: boolean }) {
  return (
    <Center minHeight={compact ? undefined : '100dvh'} py={compact ? '6' : '16'} role="status" aria-live="polite">
      <Stack align="center" gap="4">
        <Spinner size="xl" color="brand.solid" borderWidth="3px" />
        <Text color="fg.muted">{label}</Text>
      </Stack>
    </Center>
  );
}
