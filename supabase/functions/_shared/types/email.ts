// Email import as the API answers it: the Gmail connection (OAuth), the development mailbox, the
// inbox scan and its progress, the emails read and what was taken from each, and the traveller's
// private forwarding address. Dates are ISO 8601 strings. docs/architecture.md, "Email import API",
// lists every call with its answers and errors.
import type { ListPage } from '../schemas/pagination.ts';

/** The one Google scope FareBack asks for: read-only mail. */
export const GMAIL_READONLY_SCOPE = 'https://www.googleapis.com/auth/gmail.readonly';
/** The OAuth redirect path on the site (the gateway hands it to the api's `/api/oauth2callback`). */
export const OAUTH_REDIRECT_PATH = '/oauth2callback';
/**
 * Where the browser is sent after the callback: with `code` and `state` (the page finishes the
 * connection with `POST /api/email/oauth-exchange` under its own session), or `error=<code>`.
 */
export const CONNECT_EMAIL_PATH = '/connect-email';

/** The `error` query value `/oauth2callback` sends the browser back to `/connect-email` with. */
export const OAUTH_RETURN_ERRORS = ['oauth_failed', 'oauth_token_failed', 'oauth_invalid', 'user_not_found'] as const;
export type OAuthReturnError = (typeof OAUTH_RETURN_ERRORS)[number];

/** `GET /api/oauth/config` (signed in). */
export interface OAuthConfigResponse {
  /** The redirect URI registered with Google: `${SITE_URL}/oauth2callback` unless configured. */
  redirectUri: string;
  clientIdAvailable: boolean;
  clientSecretAvailable: boolean;
  scopes: string[];
  /**
   * Whether this server offers `GET /api/email/connect-dev` (the local sample mailbox): true on the
   * local stack (EMAIL_DEV_MAILBOX=true), false on a deployment. The 'Toggle Email (Dev)' button
   * is shown only when it is true.
   */
  devConnectAvailable: boolean;
}

/** `GET /api/email/connect` (200): Google's authorization URL (state and PKCE included). */
export interface EmailConnectResponse {
  authUrl: string;
}

/**
 * `GET /api/email/connect` (503) when Google credentials are not configured: `message` contains
 * 'configuration error'; `details` says what is missing (and, where offered, that the development
 * mailbox can be used instead).
 */
export interface EmailConfigErrorResponse {
  message: string;
  details: string;
}

/** `GET /api/email/connect-dev` (local stack only): toggles the connection to the sample mailbox. */
export interface EmailConnectDevResponse {
  message: string;
  emailConnected: boolean;
}

/** `POST /api/email/manual-token-exchange {code}` (200). */
export interface ManualTokenExchangeResponse {
  message: string;
  connection: EmailConnection;
}

/**
 * `POST /api/email/oauth-exchange {code, state}` (200): connected. A refusal is 400 (or 503)
 * `{message, error}` with `error` one of OAUTH_RETURN_ERRORS.
 */
export type OAuthExchangeResponse = ManualTokenExchangeResponse;
export interface OAuthExchangeErrorResponse {
  message: string;
  error: OAuthReturnError;
}

/** `POST /api/email/disconnect` (200). */
export interface EmailDisconnectResponse {
  message: string;
}

/**
 * - `not_connected`: no mailbox (never connected, or disconnected);
 * - `connected`: scanning works;
 * - `needs_reconnect`: Google refused the stored token (revoked by the traveller, expired): the
 *   traveller was told (an `email_reconnect` notification) and scanning stopped until they connect
 *   again.
 */
export type EmailConnectionState = 'not_connected' | 'connected' | 'needs_reconnect';

/** `gmail`: a Gmail inbox through OAuth; `sample`: the repository's sample mailbox (local stack). */
export type EmailProvider = 'gmail' | 'sample';

export type EmailScanStatus = 'queued' | 'scanning' | 'waiting' | 'done' | 'failed';

/** The last (or running) scan of the connected mailbox. */
export interface EmailScanProgress {
  id: number;
  /** `waiting`: Gmail answered 429 or a quota error; it resumes by itself at `retryAt`. */
  status: EmailScanStatus;
  /** `full` on the first scan, `incremental` (Gmail history since the last scan) after it. */
  mode: 'full' | 'incremental';
  /** Emails read so far and emails the search matched. */
  scanned: number;
  total: number;
  /** Flights created, updated by a change email, and cancelled by a cancellation email. */
  flightsFound: number;
  flightsUpdated: number;
  flightsCancelled: number;
  /** Of the flights found, those kept but not watched because the plan's limit was reached. */
  flightsNotWatched: number;
  /** Bookings from unknown senders held for the traveller to confirm (not flights, not counted). */
  flightsHeld: number;
  /**
   * One line for the screen, e.g. 'Scanned 120 of 430 emails, 3 flights found', with
   * ' (2 not watched: your plan's limit is reached)' appended when some were over the limit and
   * ', 1 held for you to confirm' when some came from unknown senders.
   */
  summary: string;
  startedAt: string;
  finishedAt: string | null;
  retryAt: string | null;
  /** A failure in words (never a token or a body). */
  error: string | null;
}

/** The traveller's mailbox connection and private forwarding address. */
export interface EmailConnection {
  state: EmailConnectionState;
  provider: EmailProvider | null;
  /** The Gmail address connected (from Google), or the sample mailbox's address. */
  accountEmail: string | null;
  connectedAt: string | null;
  lastSyncedAt: string | null;
  scan: EmailScanProgress | null;
  /** `trips+<token>@<inbound domain>`; null when the server has no inbound domain configured. */
  forwardingAddress: string | null;
}

/** `GET /api/email/connection` */
export interface EmailConnectionResponse {
  connection: EmailConnection;
}

/** `POST /api/email/scan` (202): a scan is queued (or the one queued or running is returned). */
export interface EmailScanResponse {
  message: string;
  scan: EmailScanProgress;
}

/** Where an imported email came from. */
export type ImportedEmailVia = 'gmail' | 'sample' | 'forwarded';

/**
 * What reading one email did:
 * - `created`: new flights; `updated`: a change email changed flights; `cancelled`: a cancellation;
 * - `not_watched`: flights kept but not watched (plan limit reached);
 * - `unchanged`: the bookings it confirms are already recorded as it says;
 * - `departed`: it confirms flights that have already flown (nothing to watch; none is created);
 * - `not_a_booking`: nothing in it confirms a flight (hotels, newsletters, reminders...);
 * - `held`: a booking from a sender that is not a known airline or agency (or whose
 *   authentication failed): held for the traveller to confirm (`GET /api/email/held`);
 * - `not_trusted`: a change or cancellation from another sender than the one that sent the
 *   booking: nothing was changed;
 * - `not_read`: reading it gave up (too large, or over the extractor's time budget):
 *   `outcomeReason` says why; nothing changed.
 */
export type ImportOutcome =
  | 'created'
  | 'updated'
  | 'cancelled'
  | 'not_watched'
  | 'unchanged'
  | 'departed'
  | 'not_a_booking'
  | 'not_read'
  | 'held'
  | 'not_trusted';

/** One leg as taken from an email. */
export interface TakenSegment {
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  /** ISO 8601 local time with offset, as printed in the email. */
  departureTime: string;
}

/** One booking as taken from an email (never the body). */
export interface TakenBooking {
  airline: string;
  bookingCode: string;
  passengerLastName: string;
  segments: TakenSegment[];
  /** Cents, or null when the email gives no total. */
  totalPrice: number | null;
  currency: string | null;
  fareType: string | null;
  /** `booking`, `change` or `cancellation`, as the email reads. */
  kind: 'booking' | 'change' | 'cancellation';
  /** The flight this booking created, changed or cancelled; null when none (not watched flights have one). */
  flightId: number | null;
}

/** `GET /api/email/messages`: one email read, with what was taken from it. */
export interface ImportedEmail {
  id: number;
  via: ImportedEmailVia;
  /** The provider's message id (Gmail's id; the Message-ID header for sample and forwarded mail). */
  messageId: string;
  from: string;
  subject: string;
  /** The email's Date header. */
  date: string | null;
  readAt: string;
  outcome: ImportOutcome;
  /**
   * Why it was not read to the end (outcome `not_read`), or, with any other outcome, the
   * attachments (PDF e-tickets, Wallet passes) it did not read and why ('Not read: ticket.pdf is
   * encrypted'); null otherwise.
   */
  outcomeReason: string | null;
  bookings: TakenBooking[];
}

/** `GET /api/email/messages?page&pageSize&sort=readAt|date&order&q` */
export type ImportedEmailsResponse = ListPage<ImportedEmail>;

/**
 * `flights.emailSource` of a flight found in an email: where it came from, never the body.
 * The last email that created, changed or cancelled the flight.
 */
export interface FlightEmailSource {
  via: ImportedEmailVia;
  messageId: string;
  from: string;
  subject: string;
  date: string | null;
  /**
   * The registrable domain that sent it (`united.com`), when its authentication held: only mail
   * from this domain may change or cancel the flight. Absent on flights imported before it was kept.
   */
  senderDomain?: string | null;
}

/**
 * A booking held for the traveller to confirm: read from their mailbox, from a sender that is not
 * a known airline or agency. Not a flight: not watched, not counted against the plan.
 */
export interface HeldBooking {
  id: number;
  airline: string;
  bookingCode: string;
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  departureDate: string;
  returnDate: string | null;
  /** The email's sender and subject as read (never the body). */
  from: string;
  subject: string;
  heldAt: string;
}

/** `GET /api/email/held`: newest first (at most HELD_BOOKINGS_MAX are kept). */
export interface HeldBookingsResponse {
  held: HeldBooking[];
}

/** `POST /api/email/held/:id/confirm` (200): the flight it became, watched unless the plan is full. */
export interface ConfirmHeldBookingResponse {
  message: string;
  flightId: number;
  watched: boolean;
}

/** `POST /api/email/held/:id/dismiss` (200). */
export interface DismissHeldBookingResponse {
  message: string;
}

/** How many bookings are held per traveller at most; an outsider's flood is not stored past it. */
export const HELD_BOOKINGS_MAX = 50;

/**
 * `POST /api/email/inbound?recipient=<envelope recipient>` (the inbound mail provider;
 * `Authorization: Bearer <INBOUND_EMAIL_SECRET>`), body the raw RFC 822 message: 202 once the
 * message is kept and its reading queued (`queued` false: the same message is already waiting).
 * What it imported shows in `GET /api/email/messages` once the job has read it.
 */
export interface InboundEmailResponse {
  message: string;
  queued: boolean;
}
