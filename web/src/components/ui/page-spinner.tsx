import { Center, Spinner, Stack, Text } from '@chakra-ui/react';

/** A centred spinner for a page or route that is loading; `label` is shown and announced. */
export function PageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center minHeight="50vh" py="16" role="status" aria-live="polite">
      <Stack align="center" gap="4">
        <Spinner size="xl" color="brand.solid" borderWidth="3px" />
        <Text color="fg.muted">{label}</Text>
      </Stack>
    </Center>
  );
}
