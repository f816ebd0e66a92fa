// Reading GoTrue-shaped request bodies: JSON objects, their string and object fields, an email
// address checked as GoTrue checks it, and metadata merged as GoTrue merges it.
import type { Context } from 'hono';
import postgres from 'postgres';
import type { Env, Json } from './context.ts';
import { AuthError } from './errors.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function readJson(c: Context<Env>): Promise<Json> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  } catch (error) {
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
}

export function stringField(body: Json, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' ? value : undefined;
}

export function objectField(body: Json, key: string): Json | undefined {
  const value = body[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof postgres.PostgresError && error.code === '23505';
}

export function requireValidEmail(email: string | undefined): string {
  const trimmed = email?.trim() ?? '';
  if (!EMAIL_PATTERN.test(trimmed) || trimmed.length > 255) {
    throw new AuthError(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
  }
  return trimmed.toLowerCase();
}

/** GoTrue merges metadata updates key by key; a null value removes the key. */
export function mergeMetadata(current: Json, update: Json): Json {
  const merged: Json = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
