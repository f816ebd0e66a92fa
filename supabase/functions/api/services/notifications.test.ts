import assert from 'node:assert/strict';
import { recordingMailer, ScriptedDb, SITE_URL } from '../testing.ts';
import { deliverPendingEmails } from './notifications.ts';

Deno.test('alerts: only to confirmed addresses, under a fixed subject whatever the row says', async () => {
  const claimed = [
    { id: 1, status: 'sent', type: 'price_drop', email: 'owner@example.com', username: 'owner', message: 'Fare down.' },
    { id: 2, status: 'suppressed', type: 'price_drop', email: 'victim@example.com', username: 'x', message: 'Spam' },
  ];
  const db = new ScriptedDb([claimed]);
  const mailer = recordingMailer();
  const result = await deliverPendingEmails({ db, mailer, config: { siteUrl: SITE_URL } });
  assert.deepEqual(result, { sent: 1, failed: 0 });
  assert.deepEqual(
    mailer.sent.map((mail) => [mail.to, mail.subject]),
    [['owner@example.com', 'A fare dropped on one of your flights']],
  );
  // the claim decides per row from the owner's confirmation, in the same statement
  assert.match(
    db.queries[0] ?? '',
    /case when p\.email_confirmed_at is not null and p\.email is not null then 'sent' else 'suppressed' end/,
  );
  assert.ok(!(db.queries[0] ?? '').includes('n.title'), 'the row title is not read for the subject');
});
