import { Alert, Badge, Box, Button, Code, Heading, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { EmailConnection, EmailScanProgress, ImportedEmail, ImportOutcome } from '@shared/types/email.ts';
import type { QueryKey } from '@tanstack/react-query';
import { QueryState } from '@/components/query-state/query-state';
import { formatDate } from '@/lib/format';
import { useDisconnectEmail, useEmailConnection, useImportedEmails, useStartScan } from '../api';
import { ConnectEmailCard, EmailConnectActions } from './connect-email';
import { CopyButton } from './copy-button';
import { HeldBookings } from './held-bookings';

const PROVIDER_NAMES = { gmail: 'Gmail', sample: 'the sample mailbox' } as const;

/** The green notice the Settings tab shows once email is connected. */
export function ConnectedNotice({ connection }: { connection: EmailConnection | undefined }) {
  const account = connection?.accountEmail;
  const provider = connection?.provider ? PROVIDER_NAMES[connection.provider] : null;
  return (
    <Alert.Root status="success" borderRadius="md">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Email successfully connected</Alert.Title>
        <Alert.Description>
          {account ? `${account}${provider ? ` (${provider})` : ''}. ` : ''}You&apos;ll receive notifications about
          price drops and rebooking confirmations.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

const SCAN_STATUS: Record<EmailScanProgress['status'], string> = {
  queued: 'Waiting to start',
  scanning: 'Scanning',
  waiting: 'Paused: Gmail asked us to slow down',
  done: 'Finished',
  failed: 'Failed',
};

/** The scan's progress: 'Scanned 120 of 430 emails, 3 flights found', a bar, and Scan Now. */
export function ScanProgress({ scan, canScan }: { scan: EmailScanProgress | null; canScan: boolean }) {
  const startScan = useStartScan();
  const running = scan?.status === 'queued' || scan?.status === 'scanning' || scan?.status === 'waiting';
  return (
    <Stack gap="2" aria-live="polite">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Heading as="h4" size="sm">
          Inbox scan
        </Heading>
        {canScan && (
          <Button
            size="xs"
            variant="outline"
            onClick={() => startScan.mutate()}
            loading={startScan.isPending}
            disabled={running}
          >
            Scan Now
          </Button>
        )}
      </HStack>
      {scan ? (
        <>
          <Text fontSize="sm">{scan.summary}</Text>
          <Progress.Root
            value={
              scan.total > 0 ? Math.min(100, (scan.scanned / scan.total) * 100) : scan.status === 'done' ? 100 : null
            }
            size="sm"
            colorPalette={scan.status === 'failed' ? 'red' : 'brand'}
          >
            <Progress.Track aria-label="Scan progress">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" color="fg.muted">
            {SCAN_STATUS[scan.status]}
            {scan.status === 'waiting' && scan.retryAt
              ? `, resuming at ${new Date(scan.retryAt).toLocaleTimeString()}`
              : ''}
            {scan.status === 'failed' && scan.error ? `: ${scan.error}` : ''}
            {scan.finishedAt ? ` · ${formatDate(scan.finishedAt)}` : ''}
          </Text>
        </>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          No scan yet.
        </Text>
      )}
    </Stack>
  );
}

/** The private address that imports whatever is forwarded to it (no Gmail permission needed). */
export function ForwardingAddress({ address }: { address: string | null }) {
  if (!address) return null;
  return (
    <Stack gap="2">
      <Heading as="h4" size="sm">
        Forward booking emails
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Rather not connect your inbox? Forward airline confirmations to your private address and we&apos;ll add the
        flights.
      </Text>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="2" align={{ base: 'stretch', sm: 'center' }}>
        <Code flex="1" px="2" py="1" wordBreak="break-all" whiteSpace="normal" aria-label="Your forwarding address">
          {address}
        </Code>
        <CopyButton text={address}>Copy Address</CopyButton>
      </Stack>
    </Stack>
  );
}

const OUTCOMES: Record<ImportOutcome, { label: string; palette: string }> = {
  created: { label: 'Flight added', palette: 'green' },
  updated: { label: 'Flight changed', palette: 'blue' },
  cancelled: { label: 'Flight cancelled', palette: 'orange' },
  not_watched: { label: 'Found, not watched', palette: 'yellow' },
  unchanged: { label: 'Already up to date', palette: 'gray' },
  departed: { label: 'Already flown', palette: 'gray' },
  not_a_booking: { label: 'Not a booking', palette: 'gray' },
  held: { label: 'Held: confirm it', palette: 'orange' },
  not_trusted: { label: 'Ignored: other sender', palette: 'gray' },
  not_read: { label: 'Not read', palette: 'red' },
};

function EmailRow({ email }: { email: ImportedEmail }) {
  const outcome = OUTCOMES[email.outcome];
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="3" listStyleType="none">
      <Stack gap="1">
        <HStack justify="space-between" align="flex-start" gap="2">
          <Text fontWeight="medium" fontSize="sm" wordBreak="break-word">
            {email.subject || '(no subject)'}
          </Text>
          <Badge colorPalette={outcome.palette} flexShrink={0}>
            {outcome.label}
          </Badge>
        </HStack>
        <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
          {email.from} · {formatDate(email.date)}
          {email.via === 'forwarded' ? ' · forwarded' : ''}
        </Text>
        {email.outcomeReason && (
          <Text fontSize="sm" color="fg.muted">
            {email.outcomeReason}
          </Text>
        )}
        {email.bookings.map((booking) => (
          <Text key={`${booking.bookingCode}-${booking.passengerLastName}`} fontSize="sm">
            {booking.airline} {booking.bookingCode} · {booking.passengerLastName}
            {booking.segments.length > 0 && ' · '}
            {booking.segments
              .map(
                (segment) =>
                  `${segment.flightNumber} ${segment.departureAirport}→${segment.arrivalAirport} ${formatDate(segment.departureTime)}`,
              )
              .join(', ')}
          </Text>
        ))}
      </Stack>
    </Box>
  );
}

/** Which emails were read and what was taken from each (the newest first). */
export function ImportedEmails() {
  const emails = useImportedEmails();
  return (
    <Stack gap="2">
      <Heading as="h4" size="sm">
        Emails read
      </Heading>
      <QueryState
        query={emails}
        loadingLabel="Loading the emails read"
        errorTitle="The emails read could not be loaded"
        empty={{ when: (page) => page.items.length === 0, title: 'No emails read yet' }}
      >
        {(page) => (
          <Stack as="ul" gap="2" ps="0">
            {page.items.map((email) => (
              <EmailRow key={email.id} email={email} />
            ))}
            {page.total > page.items.length && (
              <Text fontSize="xs" color="fg.muted">
                The {page.items.length} most recent of {page.total} emails.
              </Text>
            )}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}

/**
 * The email connection panel: connected (notice, scan, forwarding address, emails read, and
 * 'Disconnect Email' where `showDisconnect`), needing reconnection, or not connected (the
 * connect actions and the forwarding address, which works without Gmail). `refreshAfterConfirm`:
 * the flights and stats queries, named by the app, refetched when a held booking becomes a flight.
 */
export function EmailConnectionPanel({
  showDisconnect = false,
  refreshAfterConfirm,
}: {
  showDisconnect?: boolean;
  refreshAfterConfirm: readonly QueryKey[];
}) {
  const connection = useEmailConnection();
  const disconnect = useDisconnectEmail();
  return (
    <QueryState
      query={connection}
      loadingLabel="Loading your email connection"
      errorTitle="Your email connection could not be loaded"
    >
      {(current) => (
        <Stack gap="5">
          {current.state === 'connected' && <ConnectedNotice connection={current} />}
          {current.state === 'needs_reconnect' && (
            <Alert.Root status="warning" borderRadius="md">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Reconnect your email</Alert.Title>
                <Alert.Description>
                  Google no longer accepts FareBack&apos;s access to {current.accountEmail ?? 'your inbox'} (it was
                  revoked or has expired), so scanning has stopped. Connect again to resume.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {current.state === 'not_connected' && <ConnectEmailCard />}
          {current.state === 'needs_reconnect' && <EmailConnectActions gmailLabel="Reconnect Gmail" />}
          {current.state === 'connected' && <ScanProgress scan={current.scan} canScan />}
          <HeldBookings refreshAfterConfirm={refreshAfterConfirm} />
          <ForwardingAddress address={current.forwardingAddress} />
          {(current.state !== 'not_connected' || current.scan) && <ImportedEmails />}
          {showDisconnect && current.state !== 'not_connected' && (
            <Box>
              <Button
                colorPalette="red"
                variant="outline"
                onClick={() => disconnect.mutate()}
                loading={disconnect.isPending}
              >
                Disconnect Email
              </Button>
            </Box>
          )}
        </Stack>
      )}
    </QueryState>
  );
}

/** The running or last scan on its own (onboarding's 'From Email' tab). */
export function EmailImportProgress() {
  const connection = useEmailConnection();
  return (
    <QueryState
      query={connection}
      loadingLabel="Loading your inbox scan"
      errorTitle="Your inbox scan could not be loaded"
    >
      {(current) => <ScanProgress scan={current.scan} canScan={false} />}
    </QueryState>
  );
}
