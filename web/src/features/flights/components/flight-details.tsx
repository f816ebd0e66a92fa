import { Box, SimpleGrid, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface DetailProps {
  label: string;
  children: ReactNode;
  /** Take the whole row of the list. */
  fullRow?: boolean;
}

/**
 * A label over its value, inside a <dl> (DetailList); the card and the dialogs lay facts out with
 * these. Each is one div holding exactly a dt and a dd, as a <dl> allows.
 */
export function Detail({ label, children, fullRow = false }: DetailProps) {
  return (
    <Box minW="0" gridColumn={fullRow ? '1 / -1' : undefined}>
      <Text as="dt" fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {label}
      </Text>
      <Box as="dd" fontWeight="medium" overflowWrap="anywhere">
        {children}
      </Box>
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
