// GoTrue's error responses. GoTrue answers in one of two shapes depending on the
// X-Supabase-Api-Version request header: before 2024-01-01 (and with no header, as plain fetch
// callers such as our api function send) `{ code: <http status>, error_code, msg }`; from
// 2024-01-01 on (supabase-js always sends it) `{ code: <error code>, message }` with the header
// echoed back. Both shapes here also carry `error_code` and `msg`, so a caller that reads the
// documented `{ code, error_code, msg }` contract works whichever header it sent.

const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';

export type AuthErrorCode =
  | 'bad_json'
  | 'bad_jwt'
  | 'bad_oauth_callback'
  | 'bad_oauth_state'
  | 'email_address_invalid'
  | 'email_exists'
  | 'email_not_confirmed'
  | 'invalid_credentials'
  | 'no_authorization'
  | 'not_found'
  | 'not_admin'
  | 'otp_expired'
  | 'over_email_send_rate_limit'
  | 'over_request_rate_limit'
  | 'provider_disabled'
  | 'reauthentication_needed'
  | 'reauthentication_not_valid'
  | 'refresh_token_already_used'
  | 'refresh_token_not_found'
  | 'request_too_large'
  | 'same_password'
  | 'session_not_found'
  | 'signup_disabled'
  | 'unexpected_failure'
  | 'unsupported_grant_type'
  | 'user_already_exists'
  | 'user_banned'
  | 'user_not_found'
  | 'validation_failed'
  | 'weak_password';

export class AuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500,
    readonly errorCode: AuthErrorCode,
    message: string,
    /** Extra top-level fields, e.g. `weak_password: { reasons }`. */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

/** GoTrue's 429 for a request over one of its rate limits, with the seconds until it may retry. */
export function rateLimitError(retryAfterSeconds: number): AuthError {
  return new AuthError(
    429,
    'over_request_rate_limit',
    'Request rate limit reached',
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}

/** Builds the JSON body and headers GoTrue would send for `error` to a request with `headers`. */
export function errorResponse(
  error: AuthError,
  requestHeaders: Headers,
): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const requested = requestHeaders.get(API_VERSION_HEADER);
  const versioned = requested !== null && /^\d{4}-\d{2}-\d{2}$/.test(requested) && requested >= API_VERSION_2024;
  if (versioned) {
    return {
      status: error.status,
      body: {
        code: error.errorCode,
        message: error.message,
        error_code: error.errorCode,
        msg: error.message,
        ...error.extra,
      },
      headers: { ...error.headers, 'X-Supabase-Api-Version': API_VERSION_2024 },
    };
  }
  return {
    status: error.status,
    body: { code: error.status, error_code: error.errorCode, msg: error.message, ...error.extra },
    headers: { ...error.headers },
  };
}
