// The auth server's storage: GoTrue's own tables in schema `auth` (auth.users, auth.identities,
// auth.sessions, auth.refresh_tokens as dev/platform.sql creates them), through postgres.js.
// Every function takes the query function of an open transaction, so a handler's statements run
// as one unit; against PGlite (one shared session) that is also what keeps them together.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type postgres from 'postgres';

export type Db = postgres.ISql;
type Json = Record<string, unknown>;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Json | null;
  raw_user_meta_data: Json | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Json;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

export interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean | null;
  parent: string | null;
  session_id: string | null;
  updated_at: Date | null;
  /** Seconds since the token was last updated (for a revoked token: since its revocation), by the database clock. */
  revoked_seconds_ago: number;
}

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date | null;
  aal: string | null;
}

/** A user as GoTrue serialises it. */
export interface UserJson {
  id: string;
  aud: string;
  role: string;
  email: string;
  email_confirmed_at?: string;
  phone: string;
  phone_confirmed_at?: string;
  confirmation_sent_at?: string;
  confirmed_at?: string;
  recovery_sent_at?: string;
  last_sign_in_at?: string;
  app_metadata: Json;
  user_metadata: Json;
  identities: IdentityJson[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
}

export interface IdentityJson {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: Json;
  provider: string;
  last_sign_in_at?: string;
  created_at: string;
  updated_at: string;
  email?: string;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_sent_at,
  recovery_token, recovery_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data,
  created_at, updated_at, phone, phone_confirmed_at, banned_until, is_anonymous`;

const iso = (date: Date | null | undefined): string | undefined => (date ? date.toISOString() : undefined);

/** Drops undefined fields, as GoTrue's `omitempty` does for unset timestamps. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A jsonb parameter; typed explicitly so prepared and unprepared statements agree. */
export function jsonb(db: Db, value: Json): postgres.Parameter {
  return db.json(value as postgres.JSONValue);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function identityJson(row: IdentityRow): IdentityJson {
  return compact({
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data,
    provider: row.provider,
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at) ?? new Date().toISOString(),
    updated_at: iso(row.updated_at) ?? new Date().toISOString(),
    email: row.email ?? undefined,
  });
}

export function userJson(row: UserRow, identities: IdentityRow[]): UserJson {
  const confirmedAt = row.email_confirmed_at ?? row.phone_confirmed_at;
  return compact({
    id: row.id,
    aud: row.aud ?? 'authenticated',
    role: row.role ?? 'authenticated',
    email: row.email ?? '',
    email_confirmed_at: iso(row.email_confirmed_at),
    phone: row.phone ?? '',
    phone_confirmed_at: iso(row.phone_confirmed_at),
    confirmation_sent_at: iso(row.confirmation_sent_at),
    confirmed_at: iso(confirmedAt),
    recovery_sent_at: iso(row.recovery_sent_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: iso(row.created_at) ?? new Date().toISOString(),
    updated_at: iso(row.updated_at) ?? new Date().toISOString(),
    is_anonymous: row.is_anonymous,
  });
}

// ---------------------------------------------------------------------------------------------
// Users and identities
// ---------------------------------------------------------------------------------------------

export async function findUserById(db: Db, id: string, forUpdate = false): Promise<UserRow | undefined> {
  const rows = await db<UserRow[]>`
    select ${db.unsafe(USER_COLUMNS)} from auth.users
    where id = ${id} ${forUpdate ? db`for update` : db``}`;
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string, forUpdate = false): Promise<UserRow | undefined> {
  const rows = await db<UserRow[]>`
    select ${db.unsafe(USER_COLUMNS)} from auth.users
    where lower(email) = lower(${email}) and is_sso_user = false
    ${forUpdate ? db`for update` : db``}`;
  return rows[0];
}

export async function findUserByRecoveryTokenHash(db: Db, tokenHash: string): Promise<UserRow | undefined> {
  const rows = await db<UserRow[]>`
    select ${db.unsafe(USER_COLUMNS)} from auth.users
    where recovery_token = ${tokenHash} and recovery_token <> ''
    for update`;
  return rows[0];
}

export async function identitiesOf(db: Db, userId: string): Promise<IdentityRow[]> {
  return db<IdentityRow[]>`
    select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
    from auth.identities where user_id = ${userId} order by created_at, id`;
}

export async function loadUserJson(db: Db, userId: string): Promise<UserJson | undefined> {
  const user = await findUserById(db, userId);
  return user ? userJson(user, await identitiesOf(db, userId)) : undefined;
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  emailConfirmed: boolean;
  userMetadata: Json;
  appMetadata: Json;
}

export interface NewIdentity {
  provider: string;
  /** The provider's id for the account; for `email` identities GoTrue uses the user id. */
  providerId: string;
  identityData: Json;
}

/**
 * Inserts the user and its first identity: the given one, else (like GoTrue for password users)
 * an `email` identity. Returns the user id.
 */
export async function insertUser(db: Db, user: NewUser, identity?: NewIdentity): Promise<string> {
  const id = randomUUID();
  const email = user.email.toLowerCase();
  await db`
    insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
      raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
    values ('00000000-0000-0000-0000-000000000000', ${id}, 'authenticated', 'authenticated', ${email},
      ${user.passwordHash}, ${user.emailConfirmed ? db`now()` : null},
      ${jsonb(db, user.appMetadata)}, ${jsonb(db, user.userMetadata)},
      now(), now(), false)`;
  await insertIdentity(db, {
    userId: id,
    ...(identity ?? {
      provider: 'email',
      providerId: id,
      identityData: { sub: id, email, email_verified: user.emailConfirmed, phone_verified: false },
    }),
  });
  return id;
}

export async function insertIdentity(
  db: Db,
  identity: { userId: string; provider: string; providerId: string; identityData: Json },
): Promise<void> {
  await db`
    insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
    values (${identity.providerId}, ${identity.userId}, ${jsonb(db, identity.identityData)},
      ${identity.provider}, now(), now(), now())`;
}

export async function findIdentity(db: Db, provider: string, providerId: string): Promise<IdentityRow | undefined> {
  const rows = await db<IdentityRow[]>`
    select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
    from auth.identities where provider = ${provider} and provider_id = ${providerId}`;
  return rows[0];
}

/** Users with an identity of `provider`, for the local Google account chooser. */
export async function usersWithProvider(db: Db, provider: string): Promise<{ email: string; name: string | null }[]> {
  return db<{ email: string; name: string | null }[]>`
    select i.email as email, coalesce(i.identity_data ->> 'full_name', i.identity_data ->> 'name') as name
    from auth.identities i join auth.users u on u.id = i.user_id
    where i.provider = ${provider} and i.email is not null
    order by i.last_sign_in_at desc nulls last, i.email`;
}

export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db`delete from auth.refresh_tokens where user_id = ${userId}`;
  await db`delete from auth.users where id = ${userId}`;
}

// ---------------------------------------------------------------------------------------------
// Sessions and refresh tokens
// ---------------------------------------------------------------------------------------------

/** GoTrue's refresh tokens are short random strings; only their unguessability matters. */
function newRefreshTokenString(): string {
  return randomBytes(16).toString('base64url');
}

export async function createSession(
  db: Db,
  userId: string,
  client: { userAgent: string | null; ip: string | null },
): Promise<{ sessionId: string; refreshToken: string; createdAt: Date }> {
  const sessionId = randomUUID();
  const [session] = await db<{ created_at: Date }[]>`
    insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
    values (${sessionId}, ${userId}, now(), now(), 'aal1', ${client.userAgent}, ${client.ip})
    returning created_at`;
  const refreshToken = newRefreshTokenString();
  await db`
    insert into auth.refresh_tokens (token, user_id, revoked, created_at, updated_at, parent, session_id)
    values (${refreshToken}, ${userId}, false, now(), now(), null, ${sessionId})`;
  await db`update auth.users set last_sign_in_at = now(), updated_at = now() where id = ${userId}`;
  return { sessionId, refreshToken, createdAt: session?.created_at ?? new Date() };
}

export async function findSession(db: Db, sessionId: string, forUpdate = false): Promise<SessionRow | undefined> {
  const rows = await db<SessionRow[]>`
    select id, user_id, created_at, aal from auth.sessions
    where id = ${sessionId} ${forUpdate ? db`for update` : db``}`;
  return rows[0];
}

const REFRESH_TOKEN_COLUMNS = `id::text as id, token, user_id, revoked, parent, session_id, updated_at,
  extract(epoch from (now() - coalesce(updated_at, created_at)))::float8 as revoked_seconds_ago`;

export async function findRefreshToken(db: Db, token: string): Promise<RefreshTokenRow | undefined> {
  const rows = await db<RefreshTokenRow[]>`
    select ${db.unsafe(REFRESH_TOKEN_COLUMNS)}
    from auth.refresh_tokens where token = ${token} for update`;
  return rows[0];
}

export async function activeRefreshToken(db: Db, sessionId: string): Promise<RefreshTokenRow | undefined> {
  const rows = await db<RefreshTokenRow[]>`
    select ${db.unsafe(REFRESH_TOKEN_COLUMNS)}
    from auth.refresh_tokens where session_id = ${sessionId} and revoked = false
    order by id desc limit 1`;
  return rows[0];
}

/** Revokes `token` and issues its successor in the same session. */
export async function rotateRefreshToken(db: Db, token: RefreshTokenRow): Promise<string> {
  const next = newRefreshTokenString();
  await db`update auth.refresh_tokens set revoked = true, updated_at = now() where id = ${token.id}`;
  await db`
    insert into auth.refresh_tokens (token, user_id, revoked, created_at, updated_at, parent, session_id)
    values (${next}, ${token.user_id}, false, now(), now(), ${token.token}, ${token.session_id})`;
  if (token.session_id) await db`update auth.sessions set updated_at = now() where id = ${token.session_id}`;
  return next;
}

/** Ends one session: its refresh tokens go with it (on delete cascade), its access tokens stop working. */
export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db`delete from auth.sessions where id = ${sessionId}`;
}

export async function deleteSessions(
  db: Db,
  userId: string,
  scope: 'global' | 'local' | 'others',
  sessionId: string | null,
): Promise<void> {
  if (scope === 'global') {
    await db`delete from auth.sessions where user_id = ${userId}`;
    // Tokens issued before sessions existed have no session_id; GoTrue revokes them too.
    await db`update auth.refresh_tokens set revoked = true, updated_at = now() where user_id = ${userId} and session_id is null`;
  } else if (scope === 'local') {
    if (sessionId) await db`delete from auth.sessions where id = ${sessionId}`;
  } else if (sessionId) {
    await db`delete from auth.sessions where user_id = ${userId} and id <> ${sessionId}`;
  } else {
    await db`delete from auth.sessions where user_id = ${userId}`;
  }
}
