// auth.sessions, owned by Supabase Auth: read-only here, to refuse tokens of ended sessions.
import type { Tx } from '../db.ts';

export async function sessionIsActive(tx: Tx, sessionId: string, userId: string): Promise<boolean> {
  const rows = await tx<{ active: boolean }[]>`
    select exists (
      select 1 from auth.sessions
      where id = ${sessionId}::uuid and user_id = ${userId}::uuid and (not_after is null or not_after > now())
    ) as active`;
  return rows[0]?.active === true;
}
