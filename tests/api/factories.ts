// Test data: unique accounts and client addresses, so test files can share one stack and run
// in parallel without seeing each other's rows, mail or login attempts.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { expect } from 'vitest';
import type { ApiClient } from './client.ts';

export interface Credentials {
  username: string;
  email: string;
  password: string;
}

export interface Session {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
  token_type: string;
}

export interface RegisteredUser extends Credentials {
  id: string;
  session: Session;
}

function tag(): string {
  return randomBytes(4).toString('hex');
}

export function newCredentials(overrides: Partial<Credentials> = {}): Credentials {
  const id = tag();
  return {
    username: `user_${id}`,
    email: `user.${id}@example.com`,
    password: `Secret@${id}A1`,
    ...overrides,
  };
}

/** An address from the benchmarking range 198.18.0.0/15, different on every call. */
export function newIp(): string {
  const bytes = randomBytes(2);
  return `198.${18 + ((bytes[0] ?? 0) & 1)}.${bytes[1] ?? 0}.${1 + Math.floor(Math.random() * 254)}`;
}

export async function registerUser(api: ApiClient, overrides: Partial<Credentials> = {}): Promise<RegisteredUser> {
  const credentials = newCredentials(overrides);
  const res = await api.post<{ user: { id: string }; session: Session }>('/auth/register', credentials, {
    ip: newIp(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...credentials, id: res.body.user.id, session: res.body.session };
}

/** Puts the traveller on the Premium plan (unlimited flights, 25% commission), as a subscription would. */
export async function putOnPremium(sql: postgres.Sql, userId: string): Promise<void> {
  await sql`update public.profiles
               set plan_id = (select id from public.subscription_plans where tier = 'premium' order by id limit 1)
             where id = ${userId}`;
}

/**
 * Runs a recurring job kind now through the scheduler's one endpoint, as its next period would:
 * the kind's earlier jobs are removed (their period is over), then POST /api/internal/jobs runs
 * that kind and `alongWith` (notification_email, say, to send what it queued) and nothing else,
 * so a price sweep never re-prices flights another test is asserting on. Answers the job's result.
 */
export async function runRecurringNow<Result = Record<string, unknown>>(
  target: { api: ApiClient; sql: postgres.Sql; cronSecret: string },
  kind: string,
  alongWith: string[] = [],
): Promise<Result> {
  await target.sql`delete from public.jobs where kind = ${kind}`;
  const res = await target.api.post(
    '/internal/jobs',
    { kinds: [kind, ...alongWith] },
    { headers: { Authorization: `Bearer ${target.cronSecret}` } },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [job] = await target.sql<{ status: string; result: Result }[]>`
    select status, result from public.jobs where kind = ${kind} order by id desc limit 1`;
  expect(job?.status).toBe('done');
  return (job as { result: Result }).result;
}
