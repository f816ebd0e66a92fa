import { Badge } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * How a status reads at a glance: success (green), warning (orange), danger (red), or a plain
 * outline for anything that needs no colour. Each screen decides which statuses get which tone
 * (the traveller's payment history: completed or outline; the admin's transactions: completed,
 * pending, else failed); the look of each tone lives here once. `data-tone` names the tone for
 * tests.
 */
export type StatusTone = 'success' | 'warning' | 'danger' | 'outline';

const toneProps: Record<StatusTone, { colorPalette?: string; variant: 'solid' | 'outline' }> = {
  success: { colorPalette: 'green', variant: 'solid' },
  warning: { colorPalette: 'orange', variant: 'solid' },
  danger: { colorPalette: 'red', variant: 'solid' },
  outline: { variant: 'outline' },
};

export function StatusBadge({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return (
    <Badge {...toneProps[tone]} data-tone={tone}>
      {children}
    </Badge>
  );
}
