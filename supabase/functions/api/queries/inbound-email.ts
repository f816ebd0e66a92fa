// Raw forwarded emails waiting for their job (private.inbound_emails, migration
// 20261122000900_email_import.sql). Service connection only: no user role may read them.
import type { Tx } from '../db.ts';
import { enqueueJob } from './jobs.ts';

export const INBOUND_EMAIL_KIND = 'email_inbound';
/** Waiting messages one traveller may have: a flood to one address cannot fill the database. */
export const INBOUND_MAX_WAITING = 50;

export type StoreInboundResult =
  { stored: true; inboundId: number } | { stored: false; reason: 'duplicate' | 'too_many_waiting' | 'no_traveller' };

/**
 * Keeps the raw message and queues the job that reads it, in one transaction; drops messages a
 * job never finished after 7 days. A message already waiting (same Message-ID) is not kept twice.
 */
export async function storeInboundEmail(
  tx: Tx,
  message: { userId: string; messageId: string; raw: Uint8Array },
): Promise<StoreInboundResult> {
  await tx`delete from private.inbound_emails where received_at < now() - interval '7 days'`;
  // the traveller's row is locked so that concurrent messages count each other
  const [counted] = await tx<{ waiting: number; duplicate: boolean }[]>`
    select (select count(*)::int from private.inbound_emails where user_id = p.id) as waiting,
           exists (select 1 from private.inbound_emails where user_id = p.id and message_id = ${message.messageId})
             as duplicate
      from public.profiles p where p.id = ${message.userId}
       for update of p
  `;
  if (!counted) return { stored: false, reason: 'no_traveller' }; // the account went meanwhile
  if (counted.duplicate) return { stored: false, reason: 'duplicate' };
  if (counted.waiting >= INBOUND_MAX_WAITING) return { stored: false, reason: 'too_many_waiting' };
  const [row] = await tx<{ id: string }[]>`
    insert into private.inbound_emails (user_id, message_id, raw)
    values (${message.userId}, ${message.messageId}, ${message.raw})
    returning id
  `;
  const inboundId = Number(row?.id);
  await enqueueJob(tx, {
    kind: INBOUND_EMAIL_KIND,
    payload: { inboundId },
    dedupeKey: `${INBOUND_EMAIL_KIND}:${inboundId}`,
  });
  return { stored: true, inboundId };
}

export interface InboundEmailRow {
  userId: string;
  messageId: string;
  raw: Uint8Array;
}

export async function inboundEmail(tx: Tx, inboundId: number): Promise<InboundEmailRow | null> {
  const [row] = await tx<{ user_id: string; message_id: string; raw: Uint8Array }[]>`
    select user_id, message_id, raw from private.inbound_emails where id = ${inboundId}
  `;
  return row ? { userId: row.user_id, messageId: row.message_id, raw: new Uint8Array(row.raw) } : null;
}

export async function deleteInboundEmail(tx: Tx, inboundId: number): Promise<void> {
  await tx`delete from private.inbound_emails where id = ${inboundId}`;
}
