// Errors a handler may throw; `onError` in app.ts turns them into `{ message }` responses.
import { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More of the answer beside `message` (e.g. `needsItinerary: true`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const NOT_AUTHENTICATED = 'Not authenticated';

/** One issue per field, in the schema's order. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * A 400 about named fields that only the server can judge (a plan name already taken), answered
 * in the shape of a schema's 400: `{ message, errors: [{ field, message }] }`.
 */
export class FieldValidationError extends HttpError {
  constructor(
    readonly errors: FieldError[],
    status: 400 | 422 = 400,
  ) {
    super(status, errors.map((e) => e.message).join('; '));
    this.name = 'FieldValidationError';
  }
}

export function fieldErrors(error: z.core.$ZodError): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    result.push({ field, message: issue.message });
  }
  return result;
}

/** The 400 message: every invalid field's first rule, each naming its field. */
export function validationMessage(error: z.core.$ZodError): string {
  return fieldErrors(error)
    .map((e) => e.message)
    .join('; ');
}

/** A field's name as a message says it: `['minPriceDrop']` -> 'Min price drop'. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  if (last === undefined) return 'Request body';
  const words = String(last)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Per-parse error map for rules a schema gives no message of its own: the message still names
 * the field and the rule ("Price must be a number"), never zod's generic "Invalid input".
 */
export const fieldNamingErrorMap: z.core.$ZodErrorMap = (issue) => {
  const name = fieldLabel(issue.path ?? []);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${name} is required`;
      if (issue.expected === 'object' && (issue.path ?? []).length === 0) {
        return 'Request body must be a JSON object';
      }
      return `${name} must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${name} must be at least ${issue.minimum} characters`
        : `${name} must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${name} must be at most ${issue.maximum} characters`
        : `${name} must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `${name} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `${name} is not a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    default:
      return `${name} is invalid`;
  }
};
