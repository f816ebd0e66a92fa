// What a traveller reads for the notifications stored for them: a row is a type and its data, and
// the api's one template module (services/notification-templates/) writes the email from it, as the
// notification_email job does. For tests whose stack's mail is not read back.
import type postgres from 'postgres';
import {
  readNotification,
  renderNotificationEmail,
} from '../../supabase/functions/api/services/notification-templates/index.ts';

export interface StoredEmail {
  id: number;
  data: Record<string, unknown>;
  subject: string;
  text: string;
}

/** The rows of this type for the user, oldest first, each with the email its template writes. */
export async function notificationEmails(
  sql: postgres.Sql,
  userId: string,
  type: string,
  where: { paymentId?: string } = {},
): Promise<StoredEmail[]> {
  const rows = await sql<{ id: number; data: Record<string, unknown>; created_at: Date }[]>`
    select id::int, data, created_at from public.notification_history
     where user_id = ${userId} and type = ${type}
       and (${where.paymentId ?? null}::text is null or data ->> 'paymentId' = ${where.paymentId ?? null})
     order by id`;
  return Promise.all(
    rows.map(async (row) => {
      const read = readNotification({ id: row.id, type, data: row.data, createdAt: row.created_at });
      if (!read.ok) throw new Error(read.reason);
      const email = await renderNotificationEmail(read.note, {
        username: 'traveller',
        siteUrl: 'http://site.test',
        supportEmail: 'support@fareback.app',
        unsubscribeUrl: null,
        kind: null,
      });
      return { id: row.id, data: row.data, subject: email.subject, text: email.text };
    }),
  );
}
