import { Table } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * The box a table sits in: a border, and on a narrow screen the table scrolls sideways inside it
 * while the page does not. DataTable puts its rows here; a plain table of a few rows (the admin's
 * plans) uses it directly. A box that scrolls must be reachable by keyboard, so it takes the
 * focus, and as a region it is named after the table it holds.
 */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="l2" tabIndex={0} role="region" aria-label={label}>
      {children}
    </Table.ScrollArea>
  );
}
