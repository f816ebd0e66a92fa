import { getAccessToken } from './supabase';

export const API_URL: string = import.meta.env.VITE_API_URL ?? '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A non-success response. `message` is the status code, a colon and a space, then the body text
 * (or the status text when the body is empty). `serverMessage` is the `message` field of a JSON
 * error body (errors are `{ "message": "..." }`), which is what toasts show.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly serverMessage: string | undefined;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = parseJson(bodyText);
    this.serverMessage = readMessage(this.body);
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readMessage(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return undefined;
}

/** The message to show a person for a failed call: the server's, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Query string values; `undefined` and `null` leave the parameter out. */
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface ApiRequestOptions {
  /** Appended to the path as a query string, each name and value URL-encoded. */
  query?: QueryParams | undefined;
}

export function apiUrl(path: string, query?: QueryParams): string {
  const url = `${API_URL.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const encoded = search.toString();
  if (!encoded) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${encoded}`;
}

/**
 * Calls the api function. Sends cookies and the Supabase access token when there is a session;
 * a JSON body only when a payload is given. Throws ApiError for any non-success status. No
 * toasts or redirects here: those belong to the query cache's handlers and the router.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  { query }: ApiRequestOptions = {},
): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = await getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  const init: RequestInit = { method, headers, credentials: 'include' };
  if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(body);
  }

  const response = await fetch(apiUrl(path, query), init);
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, response.statusText, text);
  return (text ? JSON.parse(text) : undefined) as T;
}
