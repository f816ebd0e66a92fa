import { Box, Button, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AdminAuditEntry } from '@shared/types/admin.ts';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useTableUrlState } from '@/hooks/use-table-url-state';
import { formatDateTime } from '@/lib/format';
import {
  adminAuditQueryOptions,
  AUDIT_ACTION_LABELS,
  AUDIT_TABLE,
  auditChanges,
  auditValue,
  type AuditChange,
  type AuditSortKey,
} from './audit-api';

/** Changes listed in a collapsed row. */
const CHANGES_IN_ROW = 2;
/** A change whose values are longer than this (characters) may be cut in a collapsed row. */
const LONG_CHANGE = 40;

const target = (entry: AdminAuditEntry) => entry.targetLabel ?? entry.targetId ?? entry.targetType;

export function AdminAuditTab() {
  const state = useTableUrlState(AUDIT_TABLE);
  const query = useQuery(adminAuditQueryOptions(state.params));

  const columns: DataTableColumn<AdminAuditEntry, AuditSortKey>[] = [
    {
      id: 'at',
      header: 'When',
      sortKey: 'at',
      cell: (entry) => <Text whiteSpace="nowrap">{formatDateTime(entry.at)}</Text>,
    },
    { id: 'actor', header: 'Who', sortKey: 'actor', cell: (entry) => entry.actorName },
    {
      id: 'action',
      header: 'Action',
      sortKey: 'action',
      cell: (entry) => <Text whiteSpace="nowrap">{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</Text>,
    },
    { id: 'target', header: 'Target', cell: target },
    {
      id: 'change',
      header: 'Change',
      cell: (entry) => <ChangeSummary entry={entry} />,
    },
  ];

  return (
    <DataTable
      caption="Audit log"
      columns={columns}
      state={state}
      query={query}
      rowKey={(entry) => entry.id}
      searchLabel="Search audit log"
      errorTitle="Error loading the audit log"
      empty={{
        title: 'Nothing recorded yet',
        description: 'Admin actions (admin rights, plans, payments and manual runs) appear here.',
      }}
    />
  );
}

function ChangeLine({ change, full }: { change: AuditChange; full: boolean }) {
  return (
    <Text
      fontSize="sm"
      maxW="full"
      {...(full ? { wordBreak: 'break-word' } : { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' })}
    >
      <Text as="span" color="fg.muted">
        {change.field}:
      </Text>{' '}
      {change.before !== undefined && (
        <>
          {auditValue(change.before, change.field)}
          {change.after !== undefined && ' → '}
        </>
      )}
      {change.after !== undefined && auditValue(change.after, change.field)}
    </Text>
  );
}

/**
 * The fields an entry changed, before → after: the first few on one line each, cut to the
 * column's width; 'Show all' lists every field in full.
 */
function ChangeSummary({ entry }: { entry: AdminAuditEntry }) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const changes = auditChanges(entry);
  if (changes.length === 0) return <Text color="fg.muted">No change recorded</Text>;
  const hidden = changes.length - CHANGES_IN_ROW;
  const long = changes.some(
    (change) =>
      auditValue(change.before, change.field).length + auditValue(change.after, change.field).length > LONG_CHANGE,
  );
  const shown = expanded ? changes : changes.slice(0, CHANGES_IN_ROW);
  return (
    <Stack gap="0.5" align="flex-start" maxW="xs" minW="48">
      <Stack as="ul" id={listId} gap="0.5" listStyleType="none" maxW="full">
        {shown.map((change) => (
          <Box as="li" key={change.field} maxW="full">
            <ChangeLine change={change} full={expanded} />
          </Box>
        ))}
      </Stack>
      {(hidden > 0 || long) && (
        <Button
          size="xs"
          variant="plain"
          px="0"
          h="auto"
          colorPalette="brand"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : hidden > 0 ? `Show all (${hidden} more)` : 'Show all'}
        </Button>
      )}
    </Stack>
  );
}
