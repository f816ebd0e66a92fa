// Email import's SQL: OAuth attempts, the connection and its (encrypted) tokens, the forwarding
// address, scans, and the emails read. Functions marked "as the user" run under RLS; the others
// run on the service connection and name the user.
import type { ListPage, ListQuery } from '../../_shared/schemas/pagination.ts';
import type {
  EmailConnectionState,
  EmailProvider,
  EmailScanProgress,
  FlightEmailSource,
  ImportedEmail,
  ImportOutcome,
  TakenBooking,
} from '../../_shared/types/email.ts';
import type { Tx } from '../db.ts';
import { containsPattern, listPage } from './pagination.ts';
import { queueNotification } from './notifications.ts';

// ---- OAuth attempts ---------------------------------------------------------------------------

export async function insertOAuthAttempt(
  tx: Tx,
  a: { userId: string; sessionId: string; stateHash: string; verifier: string },
): Promise<void> {
  await tx`
    insert into private.email_oauth_attempts (user_id, session_id, state_hash, code_verifier)
    values (${a.userId}, ${a.sessionId}, ${a.stateHash}, ${a.verifier})
  `;
  // a user's stale attempts go (bounded: one row per connect click)
  await tx`delete from private.email_oauth_attempts where expires_at < now() - interval '1 day'`;
}

/**
 * Spends the attempt of this state (once) when this user's session started it and it is within
 * its 10 minutes: answers its PKCE verifier, or null (unknown, spent, expired, or another
 * session's: someone else's attempt is left as it was).
 */
export async function takeOAuthAttempt(
  tx: Tx,
  a: { stateHash: string; userId: string; sessionId: string },
): Promise<string | null> {
  const rows = await tx<{ code_verifier: string }[]>`
    update private.email_oauth_attempts set used_at = now()
     where state_hash = ${a.stateHash} and used_at is null and expires_at > now()
       and user_id = ${a.userId} and session_id = ${a.sessionId}
    returning code_verifier
  `;
  return rows[0]?.code_verifier ?? null;
}

/** The user's latest open attempt (for a pasted code), spent; null when none is open. */
export async function takeLatestOAuthAttempt(tx: Tx, userId: string, sessionId: string): Promise<string | null> {
  const rows = await tx<{ code_verifier: string }[]>`
    update private.email_oauth_attempts set used_at = now()
     where id = (
       select id from private.email_oauth_attempts
        where user_id = ${userId} and session_id = ${sessionId} and used_at is null and expires_at > now()
        order by created_at desc, id desc limit 1
        for update
     )
    returning code_verifier
  `;
  return rows[0]?.code_verifier ?? null;
}

// ---- the connection ---------------------------------------------------------------------------

export async function saveGmailConnection(
  tx: Tx,
  c: {
    userId: string;
    accountEmail: string | null;
    accessToken: string;
    refreshToken: string | null;
    expiresAt: Date;
    scopes: string[];
  },
): Promise<void> {
  // A new grant starts a full scan again (history_id cleared); a refresh token Google did not
  // send again keeps the stored one.
  await tx`
    insert into public.email_connections (
      user_id, provider, provider_account_email, access_token_encrypted, refresh_token_encrypted,
      token_expires_at, scopes, status, connected_at, history_id, last_error
    ) values (
      ${c.userId}, 'gmail', ${c.accountEmail}, ${c.accessToken}, ${c.refreshToken},
      ${c.expiresAt}, ${c.scopes}, 'connected', now(), null, null
    )
    on conflict (user_id) do update set
      provider = 'gmail',
      provider_account_email = excluded.provider_account_email,
      access_token_encrypted = excluded.access_token_encrypted,
      refresh_token_encrypted = coalesce(excluded.refresh_token_encrypted,
        case when public.email_connections.provider = 'gmail' then public.email_connections.refresh_token_encrypted end),
      token_expires_at = excluded.token_expires_at,
      scopes = excluded.scopes,
      status = 'connected',
      connected_at = now(),
      history_id = null,
      last_error = null
  `;
}

export async function saveSampleConnection(tx: Tx, userId: string, accountEmail: string): Promise<void> {
  await tx`
    insert into public.email_connections (user_id, provider, provider_account_email, status, scopes)
    values (${userId}, 'sample', ${accountEmail}, 'connected', '{}')
    on conflict (user_id) do update set
      provider = 'sample', provider_account_email = excluded.provider_account_email,
      access_token_encrypted = null, refresh_token_encrypted = null, token_expires_at = null,
      status = 'connected', connected_at = now(), history_id = null, last_error = null
  `;
}

export interface StoredConnection {
  userId: string;
  provider: EmailProvider;
  status: string;
  accountEmail: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  historyId: string | null;
}

export async function getStoredConnection(tx: Tx, userId: string): Promise<StoredConnection | null> {
  const rows = await tx<
    {
      provider: EmailProvider;
      status: string;
      provider_account_email: string | null;
      access_token_encrypted: string | null;
      refresh_token_encrypted: string | null;
      token_expires_at: Date | null;
      history_id: string | null;
    }[]
  >`
    select provider, status, provider_account_email, access_token_encrypted, refresh_token_encrypted,
      token_expires_at, history_id
      from public.email_connections where user_id = ${userId}
  `;
  const row = rows[0];
  if (!row) return null;
  return {
    userId,
    provider: row.provider,
    status: row.status,
    accountEmail: row.provider_account_email,
    accessToken: row.access_token_encrypted,
    refreshToken: row.refresh_token_encrypted,
    expiresAt: row.token_expires_at,
    historyId: row.history_id,
  };
}

export async function updateAccessToken(tx: Tx, userId: string, accessToken: string, expiresAt: Date): Promise<void> {
  await tx`
    update public.email_connections
       set access_token_encrypted = ${accessToken}, token_expires_at = ${expiresAt}
     where user_id = ${userId} and provider = 'gmail'
  `;
}

/**
 * Google refused the stored token: the connection is kept as 'revoked' (shown as needs reconnect),
 * its tokens dropped, and the traveller told once per connection (`email_reconnect`).
 */
export async function markNeedsReconnect(tx: Tx, userId: string, reason: string): Promise<void> {
  const rows = await tx<{ connected_at: Date }[]>`
    update public.email_connections
       set status = 'revoked', last_error = ${reason.slice(0, 500)},
           access_token_encrypted = null, refresh_token_encrypted = null, token_expires_at = null
     where user_id = ${userId} and status = 'connected'
    returning connected_at
  `;
  const row = rows[0];
  if (!row) return;
  await queueNotification(tx, {
    userId,
    type: 'email_reconnect',
    data: { provider: 'gmail' },
    dedupeKey: `email_reconnect:${userId}:${new Date(row.connected_at).toISOString()}`,
  });
}

export async function saveHistoryId(tx: Tx, userId: string, historyId: string | null): Promise<void> {
  await tx`
    update public.email_connections set history_id = coalesce(${historyId}, history_id), last_synced_at = now()
     where user_id = ${userId}
  `;
}

/** Deletes the connection; answers the encrypted tokens it held, for revocation. */
export async function deleteConnection(
  tx: Tx,
  userId: string,
): Promise<{ provider: EmailProvider; accessToken: string | null; refreshToken: string | null } | null> {
  const rows = await tx<
    { provider: EmailProvider; access_token_encrypted: string | null; refresh_token_encrypted: string | null }[]
  >`
    delete from public.email_connections where user_id = ${userId}
    returning provider, access_token_encrypted, refresh_token_encrypted
  `;
  const row = rows[0];
  if (!row) return null;
  // a scan queued or waiting for this mailbox stops here
  await tx`
    update public.email_scans set status = 'failed', finished_at = now(), error = 'Disconnected'
     where user_id = ${userId} and status in ('queued', 'scanning', 'waiting')
  `;
  return { provider: row.provider, accessToken: row.access_token_encrypted, refreshToken: row.refresh_token_encrypted };
}

// ---- what the traveller sees (as the user) ------------------------------------------------------

interface ScanRow {
  id: number;
  status: EmailScanProgress['status'];
  mode: EmailScanProgress['mode'];
  scanned: number;
  total: number;
  flights_found: number;
  flights_updated: number;
  flights_cancelled: number;
  flights_not_watched: number;
  flights_held: number;
  started_at: Date;
  finished_at: Date | null;
  retry_at: Date | null;
  error: string | null;
}

export function scanSummary(s: {
  scanned: number;
  total: number;
  flightsFound: number;
  flightsNotWatched: number;
  flightsHeld: number;
}): string {
  const base = `Scanned ${s.scanned} of ${s.total} email${s.total === 1 ? '' : 's'}, ${s.flightsFound} flight${s.flightsFound === 1 ? '' : 's'} found`;
  const watched =
    s.flightsNotWatched > 0 ? `${base} (${s.flightsNotWatched} not watched: your plan's limit is reached)` : base;
  return s.flightsHeld > 0 ? `${watched}, ${s.flightsHeld} held for you to confirm` : watched;
}

function toScan(row: ScanRow): EmailScanProgress {
  const scan = {
    id: Number(row.id),
    status: row.status,
    mode: row.mode,
    scanned: row.scanned,
    total: row.total,
    flightsFound: row.flights_found,
    flightsUpdated: row.flights_updated,
    flightsCancelled: row.flights_cancelled,
    flightsNotWatched: row.flights_not_watched,
    flightsHeld: row.flights_held,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    retryAt: row.retry_at ? new Date(row.retry_at).toISOString() : null,
    error: row.error,
  };
  return { ...scan, summary: scanSummary(scan) };
}

export async function latestScan(tx: Tx, userId: string): Promise<EmailScanProgress | null> {
  const rows = await tx<ScanRow[]>`
    select * from public.email_scans where user_id = ${userId} order by id desc limit 1
  `;
  return rows[0] ? toScan(rows[0]) : null;
}

export interface ConnectionRow {
  state: EmailConnectionState;
  provider: EmailProvider | null;
  accountEmail: string | null;
  connectedAt: string | null;
  lastSyncedAt: string | null;
}

/** As the user: the columns users may read. */
export async function connectionOf(tx: Tx, userId: string): Promise<ConnectionRow> {
  const rows = await tx<
    {
      status: string;
      provider: EmailProvider;
      provider_account_email: string | null;
      connected_at: Date;
      last_synced_at: Date | null;
    }[]
  >`
    select status, provider, provider_account_email, connected_at, last_synced_at
      from public.email_connections where user_id = ${userId}
  `;
  const row = rows[0];
  if (!row)
    return { state: 'not_connected', provider: null, accountEmail: null, connectedAt: null, lastSyncedAt: null };
  return {
    state: row.status === 'connected' ? 'connected' : 'needs_reconnect',
    provider: row.provider,
    accountEmail: row.provider_account_email,
    connectedAt: new Date(row.connected_at).toISOString(),
    lastSyncedAt: row.last_synced_at ? new Date(row.last_synced_at).toISOString() : null,
  };
}

// ---- the forwarding address ---------------------------------------------------------------------

/** The user's forwarding token, made on first use. */
export async function forwardingToken(tx: Tx, userId: string, fresh: string): Promise<string> {
  const rows = await tx<{ token: string }[]>`
    with made as (
      insert into private.email_forwarding_addresses (user_id, token) values (${userId}, ${fresh})
      on conflict (user_id) do nothing
      returning token
    )
    select token from made
    union all
    select token from private.email_forwarding_addresses where user_id = ${userId}
    limit 1
  `;
  return rows[0]?.token ?? fresh;
}

export async function userByForwardingToken(tx: Tx, token: string): Promise<string | null> {
  const rows = await tx<{ user_id: string }[]>`
    select user_id from private.email_forwarding_addresses where token = ${token}
  `;
  return rows[0]?.user_id ?? null;
}

// ---- scans ------------------------------------------------------------------------------------

/** Opens a scan (or answers the one open) and queues its job. */
export async function openScan(
  tx: Tx,
  userId: string,
  provider: EmailProvider,
): Promise<{ scanId: number; created: boolean }> {
  const made = await tx<{ id: number }[]>`
    insert into public.email_scans (user_id, provider, mode)
    select ${userId}, ${provider},
      case when (select history_id from public.email_connections where user_id = ${userId}) is null
           then 'full' else 'incremental' end
    on conflict (user_id) where status in ('queued', 'scanning', 'waiting') do nothing
    returning id
  `;
  if (made[0]) {
    const scanId = Number(made[0].id);
    await tx`select private.enqueue_job('email_scan', ${tx.json({ scanId, userId })}::jsonb, now(), ${`email_scan:${scanId}`})`;
    return { scanId, created: true };
  }
  const [open] = await tx<{ id: number }[]>`
    select id from public.email_scans where user_id = ${userId} and status in ('queued', 'scanning', 'waiting')
  `;
  return { scanId: Number(open?.id), created: false };
}

export async function scanOf(
  tx: Tx,
  scanId: number,
): Promise<(EmailScanProgress & { userId: string; provider: EmailProvider }) | null> {
  const rows = await tx<(ScanRow & { user_id: string; provider: EmailProvider })[]>`
    select * from public.email_scans where id = ${scanId}
  `;
  const row = rows[0];
  return row ? { ...toScan(row), userId: row.user_id, provider: row.provider } : null;
}

export async function updateScan(
  tx: Tx,
  scanId: number,
  patch: {
    status?: EmailScanProgress['status'];
    mode?: EmailScanProgress['mode'];
    total?: number;
    scanned?: number;
    add?: { found?: number; updated?: number; cancelled?: number; notWatched?: number; held?: number };
    retryAt?: Date | null;
    error?: string | null;
    finished?: boolean;
  },
): Promise<void> {
  await tx`
    update public.email_scans set
      status = coalesce(${patch.status ?? null}, status),
      mode = coalesce(${patch.mode ?? null}, mode),
      total = coalesce(${patch.total ?? null}::int, total),
      scanned = coalesce(${patch.scanned ?? null}::int, scanned),
      flights_found = flights_found + ${patch.add?.found ?? 0},
      flights_updated = flights_updated + ${patch.add?.updated ?? 0},
      flights_cancelled = flights_cancelled + ${patch.add?.cancelled ?? 0},
      flights_not_watched = flights_not_watched + ${patch.add?.notWatched ?? 0},
      flights_held = flights_held + ${patch.add?.held ?? 0},
      retry_at = ${patch.retryAt === undefined ? null : patch.retryAt},
      error = ${patch.error === undefined ? null : (patch.error?.slice(0, 500) ?? null)},
      finished_at = case when ${patch.finished ?? false} then now() else finished_at end
    where id = ${scanId}
  `;
}

/** Which of these message ids were already read for the user (any earlier scan). */
export async function alreadyRead(tx: Tx, userId: string, via: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx<{ message_id: string }[]>`
    select message_id from public.email_imports
     where user_id = ${userId} and via = ${via} and message_id = any(${ids}::text[])
  `;
  return new Set(rows.map((r) => r.message_id));
}

// ---- imports and the flights they make ---------------------------------------------------------

/** Claims a message for import: false when it was read already (by an earlier scan or a racing one). */
export async function claimImport(
  tx: Tx,
  i: { userId: string; via: string; messageId: string; sender: string; subject: string; date: Date | null },
): Promise<number | null> {
  const rows = await tx<{ id: number }[]>`
    insert into public.email_imports (user_id, via, message_id, sender, subject, email_date, outcome)
    values (${i.userId}, ${i.via}, ${i.messageId.slice(0, 300)}, ${i.sender.slice(0, 400)}, ${i.subject.slice(0, 400)},
            ${i.date}, 'not_a_booking')
    on conflict (user_id, via, message_id) do nothing
    returning id
  `;
  return rows[0] ? Number(rows[0].id) : null;
}

export async function finishImport(
  tx: Tx,
  importId: number,
  outcome: ImportOutcome,
  bookings: TakenBooking[],
  reason: string | null = null,
): Promise<void> {
  await tx`
    update public.email_imports set outcome = ${outcome}, bookings = ${tx.json(bookings as never)}::jsonb,
           outcome_reason = ${reason?.slice(0, 300) ?? null}
     where id = ${importId}
  `;
}

export interface KnownFlightRow {
  id: number;
  booking_code: string;
  flight_number: string;
  departure_airport: string;
  arrival_airport: string;
  departure_date: string;
  return_flight_number: string | null;
  return_date: string | null;
  status: string;
  has_been_rebooked: boolean;
  source_date: string | null;
  sender_domain: string | null;
}

/** The user's flights (all of them: a cancellation is matched by the codes its text names). */
export async function userFlights(tx: Tx, userId: string): Promise<KnownFlightRow[]> {
  return await tx<KnownFlightRow[]>`
    select id, booking_code, flight_number, departure_airport, arrival_airport,
      to_char(departure_date, 'YYYY-MM-DD') as departure_date, return_flight_number,
      to_char(return_date, 'YYYY-MM-DD') as return_date, status, has_been_rebooked,
      email_source ->> 'date' as source_date, email_source ->> 'senderDomain' as sender_domain
      from public.flights where user_id = ${userId}
     order by id
  `;
}

export async function updateFlightFromEmail(
  tx: Tx,
  flightId: number,
  f: {
    flightNumber: string;
    departureAirport: string;
    arrivalAirport: string;
    departureDate: string;
    isRoundTrip: boolean;
    returnFlightNumber: string | null;
    returnDate: string | null;
    seatNumber: string | null;
  },
  source: FlightEmailSource,
): Promise<void> {
  await tx`
    update public.flights set
      flight_number = ${f.flightNumber}, departure_airport = ${f.departureAirport},
      arrival_airport = ${f.arrivalAirport}, departure_date = ${f.departureDate},
      is_round_trip = ${f.isRoundTrip}, return_flight_number = ${f.returnFlightNumber},
      return_date = ${f.returnDate}, seat_number = coalesce(${f.seatNumber}, seat_number),
      email_source = ${tx.json(source as never)}::jsonb
     where id = ${flightId} and not has_been_rebooked and status <> 'rebooking'
  `;
}

export async function cancelFlightFromEmail(tx: Tx, flightId: number, source: FlightEmailSource): Promise<void> {
  await tx`
    update public.flights set status = 'cancelled', email_source = ${tx.json(source as never)}::jsonb
     where id = ${flightId} and not has_been_rebooked and status not in ('rebooking', 'rebooked', 'cancelled')
  `;
}

export async function markOverLimit(tx: Tx, flightId: number): Promise<void> {
  await tx`update public.flights set over_limit = true where id = ${flightId}`;
}

export async function promoteFoundFlights(tx: Tx, userId: string): Promise<number> {
  const [row] = await tx<{ promoted: number }[]>`select private.promote_found_flights(${userId}) as promoted`;
  return Number(row?.promoted ?? 0);
}

export async function queueOverLimitNotice(
  tx: Tx,
  userId: string,
  n: { found: number; watched: number; limit: number },
  dedupeKey: string,
): Promise<void> {
  await queueNotification(tx, { userId, type: 'import_over_limit', data: n, dedupeKey });
}

// ---- bookings held for the traveller to confirm (private.email_held_bookings) ---------------------

/**
 * Holds a booking from an unknown sender (once per code; at most `max` per traveller): false when
 * it was not stored (held already, or the traveller has `max` held).
 */
export async function holdBooking(
  tx: Tx,
  h: { userId: string; bookingCode: string; fields: unknown; source: FlightEmailSource; max: number },
): Promise<boolean> {
  const rows = await tx<{ id: number }[]>`
    insert into private.email_held_bookings (user_id, booking_code, fields, email_source)
    select ${h.userId}, ${h.bookingCode}, ${tx.json(h.fields as never)}::jsonb, ${tx.json(h.source as never)}::jsonb
     where (select count(*) from private.email_held_bookings where user_id = ${h.userId}) < ${h.max}
    on conflict (user_id, booking_code) do nothing
    returning id
  `;
  return rows.length > 0;
}

export interface HeldRow {
  id: number;
  fields: Record<string, unknown>;
  emailSource: FlightEmailSource;
  heldAt: Date;
}

export async function listHeld(tx: Tx, userId: string): Promise<HeldRow[]> {
  return await tx<HeldRow[]>`
    select id::int as "id", fields, email_source as "emailSource", held_at as "heldAt"
      from private.email_held_bookings where user_id = ${userId}
     order by held_at desc, id desc
  `;
}

/** Removes the traveller's held booking `id` and answers it; null when they hold none with that id. */
export async function takeHeld(tx: Tx, userId: string, id: number): Promise<HeldRow | null> {
  const rows = await tx<HeldRow[]>`
    delete from private.email_held_bookings where id = ${id} and user_id = ${userId}
    returning id::int as "id", fields, email_source as "emailSource", held_at as "heldAt"
  `;
  return rows[0] ?? null;
}

/** The traveller's flight with this booking code, if any. */
export async function flightIdByCode(tx: Tx, userId: string, bookingCode: string): Promise<number | null> {
  const rows = await tx<{ id: number }[]>`
    select id::int as id from public.flights where user_id = ${userId} and booking_code = ${bookingCode} limit 1
  `;
  return rows[0]?.id ?? null;
}

/** A booking code now a flight (a known sender confirmed it) is no longer held. */
export async function releaseHeldCode(tx: Tx, userId: string, bookingCode: string): Promise<void> {
  await tx`delete from private.email_held_bookings where user_id = ${userId} and booking_code = ${bookingCode}`;
}

// ---- the emails read, for the traveller (as the user) -------------------------------------------

export type ImportSortKey = 'readAt' | 'date';

export async function listImports(
  tx: Tx,
  userId: string,
  query: ListQuery<ImportSortKey>,
): Promise<ListPage<ImportedEmail>> {
  const search = query.q ? containsPattern(query.q) : null;
  const matching = tx`
    select i.id::int as "id", i.via as "via", i.message_id as "messageId", i.sender as "from",
      i.subject as "subject",
      to_char(i.email_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "date",
      to_char(i.read_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "readAt",
      i.read_at as read_sort, i.email_date as date_sort,
      i.outcome as "outcome", i.outcome_reason as "outcomeReason", i.bookings as "bookings"
      from public.email_imports i
     where i.user_id = ${userId}
       ${search ? tx`and (i.subject ilike ${search} or i.sender ilike ${search})` : tx``}
  `;
  type Row = ImportedEmail & { read_sort?: unknown; date_sort?: unknown } & Record<string, unknown>;
  const page = await listPage<Row, ImportSortKey>(tx, matching, query, {
    sort: { readAt: 'read_sort', date: 'date_sort' },
    unique: 'id',
  });
  return {
    ...page,
    items: page.items.map(({ read_sort: _r, date_sort: _d, ...item }) => item as ImportedEmail),
  };
}
