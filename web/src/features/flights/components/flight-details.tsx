import { Box, SimpleGrid, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A label over its value, inside a <dl> (DetailList); the card and the dialogs lay facts out with these. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box minW="0">
      <Text as="dt" fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {label}
      </Text>
      <Text as="dd" fontWeight="medium" overflowWrap="anywhere">
        {children}
      </Text>
    </Box>
  );
}

export function DetailList({ children, columns = 2 }: { children: ReactNode; columns?: number }) {
  return (
    <SimpleGrid as="dl" columns={{ base: Math.min(columns, 2), sm: columns }} columnGap="4" rowGap="3">
      {children}
    </SimpleGrid>
  );
}
