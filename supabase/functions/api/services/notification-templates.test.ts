import assert from 'node:assert/strict';
import {
  DEFAULT_SUBJECT,
  DIGEST_SUBJECTS,
  type EmailContext,
  type NotificationForEmail,
  NOTIFICATION_SUBJECTS,
  renderDigestEmail,
  renderNotificationEmail,
} from './notification-templates.ts';

const ctx: EmailContext = {
  username: 'ada',
  siteUrl: 'http://site.test',
  supportEmail: 'support@fareback.app',
  unsubscribeUrl: 'http://site.test/unsubscribe?token=abc',
  kind: 'rebooking',
};

const note = (type: string, data: Record<string, unknown>, message = 'The stored message.'): NotificationForEmail => ({
  id: 1,
  type,
  title: 'Stored title',
  message,
  data,
  createdAt: new Date('2026-11-24T09:00:00Z'),
});

const flight = { airline: 'JetBlue Airways', flightNumber: 'B6 123', route: 'JFK to LAX' };

/** Renders, checks what every email has, and answers the plain text and the HTML. */
async function rendered(n: NotificationForEmail, context: EmailContext = ctx) {
  const email = await renderNotificationEmail(n, context);
  assert.equal(email.subject, NOTIFICATION_SUBJECTS[n.type] ?? DEFAULT_SUBJECT);
  assert.match(email.html, /^<!DOCTYPE html/);
  assert.match(email.text, /^Hi ada,/);
  assert.ok(!email.text.includes('undefined') && !email.html.includes('undefined'));
  assert.ok(!email.text.includes('NaN'));
  assert.ok(email.text.includes('support@fareback.app'));
  return email;
}

Deno.test('price_drop: old and new fare, the net figure, and why it does or does not qualify', async () => {
  const data = { ...flight, oldPrice: 50000, newPrice: 40000, netSavings: 2500, reason: 'a $75 change fee leaves $25' };
  const no = await rendered(note('price_drop', { ...data, qualifies: false }), { ...ctx, kind: 'price_drop' });
  assert.match(no.text, /The fare dropped from \$500\.00 to \$400\.00\./);
  assert.match(no.text, /What you would save after any change fee: \$25\.00/);
  assert.match(no.text, /does not qualify for a rebooking: a \$75 change fee leaves \$25/);
  assert.match(no.text, /JetBlue Airways B6 123 \(JFK to LAX\)/i);
  assert.match(no.text, /price-drop alerts are on/);
  const yes = await rendered(note('price_drop', { ...data, qualifies: true, reason: 'it meets your $20 minimum' }));
  assert.match(yes.text, /This drop qualifies for a rebooking: it meets your \$20 minimum/);
  assert.match(yes.html, /href="http:\/\/site\.test\/dashboard"/);
});

Deno.test('rebooking: new price, credit, reference and expiry', async () => {
  const email = await rendered(
    note('rebooking', {
      ...flight,
      newPrice: 41000,
      credit: 9000,
      reference: 'CR-7731',
      creditExpiresAt: '2027-11-24',
    }),
  );
  assert.match(email.text, /New fare: \$410\.00/);
  assert.match(email.text, /Airline credit: \$90\.00/);
  assert.match(email.text, /Credit reference: CR-7731/);
  assert.match(email.text, /Credit expires: November 24, 2027/);
});

Deno.test('action_needed: what to ask the airline, the net saving and the link (only http links)', async () => {
  const data = {
    ...flight,
    netSavings: 6400,
    whatToAsk: 'Please reissue my ticket at the $410 fare',
    link: 'https://jetblue.example/manage',
  };
  const email = await rendered(note('action_needed', data));
  assert.match(email.text, /Ask the airline: "Please reissue my ticket at the \$410 fare"/);
  assert.match(email.text, /\$64\.00/);
  assert.match(email.html, /href="https:\/\/jetblue\.example\/manage"/);
  const unsafe = await rendered(note('action_needed', { ...data, link: 'javascript:alert(1)' }));
  assert.ok(!unsafe.html.includes('javascript:'));
  assert.match(unsafe.html, /href="http:\/\/site\.test\/dashboard"/);
});

Deno.test(
  'flight_cancelled, credit_expiring, payment_failed, commission_statement, email_reconnect, import_over_limit',
  async () => {
    assert.match((await rendered(note('flight_cancelled', flight))).text, /cancelled JetBlue Airways B6 123/i);
    const credit = await rendered(
      note('credit_expiring', { airline: 'Delta', amount: 12000, expiresAt: '2026-12-01', daysLeft: 7 }),
    );
    assert.match(credit.text, /Delta credit expires in 7 days/i);
    assert.match(credit.text, /Credit: \$120\.00/);
    assert.match(credit.text, /Expires: December 1, 2026/);
    const payment = await rendered(note('payment_failed', { amount: 2499, reason: 'card declined' }), {
      ...ctx,
      kind: null,
      unsubscribeUrl: null,
    });
    assert.match(payment.text, /Amount: \$24\.99/);
    assert.match(payment.text, /Reason: card declined/);
    assert.ok(!payment.text.includes('Unsubscribe'), 'account messages have no unsubscribe link');
    const statement = await rendered(
      note('commission_statement', {
        periodStart: '2026-10-01',
        periodEnd: '2026-10-31',
        credits: 40000,
        commissionDue: 10000,
        charged: 10000,
      }),
    );
    assert.match(statement.text, /October 1, 2026 to October 31, 2026/);
    assert.match(statement.text, /Commission due: \$100\.00/);
    assert.match((await rendered(note('email_reconnect', { provider: 'Gmail' }))).text, /read your Gmail inbox/);
    assert.match(
      (await rendered(note('import_over_limit', { found: 8, watched: 5, limit: 5 }))).text,
      /found 8 flights in your inbox.*\(5\)/,
    );
  },
);

Deno.test(
  'subscription_expired: the day it ended, the free plan, flights no longer watched, nothing deleted',
  async () => {
    const expired = await rendered(
      note('subscription_expired', { endDate: '2026-10-24T09:00:00.000Z', flightLimit: 5, unwatched: 2 }),
      { ...ctx, kind: null, unsubscribeUrl: null },
    );
    assert.equal(expired.subject, 'Your FareBack Premium year has ended');
    assert.match(expired.text, /ended on October 24, 2026/);
    assert.match(expired.text, /You are now on the Free plan/);
    assert.match(expired.text, /watches up to 5 flights/);
    assert.match(expired.text, /2 of your flights are kept but no longer watched\. Nothing was deleted\./);
    assert.match(expired.html, /href="http:\/\/site\.test\/premium-checkout"/);
    assert.ok(!expired.text.includes('Unsubscribe'), 'an account message: no unsubscribe link');
    const none = await rendered(note('subscription_expired', {}), { ...ctx, kind: null, unsubscribeUrl: null });
    assert.match(none.text, /Nothing was deleted\./);
  },
);

Deno.test('an unknown type gets the generic email with the stored message; missing data never shows', async () => {
  const email = await rendered(note('something_new', {}, 'A message from the future.'));
  assert.equal(email.subject, DEFAULT_SUBJECT);
  assert.match(email.text, /A message from the future\./);
  const bare = await rendered(note('rebooking', {}));
  assert.match(bare.text, /rebooked your flight/i);
});

Deno.test('the subject never carries the row title or user text; HTML escapes user text', async () => {
  const email = await rendered(
    note('flight_cancelled', { airline: '<script>alert(1)</script>', flightNumber: 'X', route: 'A to B' }),
  );
  assert.equal(email.subject, 'The airline cancelled one of your flights');
  assert.ok(!email.html.includes('<script>'));
  assert.match(email.html, /&lt;script&gt;/);
});

Deno.test('the unsubscribe link is in both parts when there is one', async () => {
  const email = await rendered(note('rebooking', flight));
  assert.match(email.text, /Unsubscribe from these emails http:\/\/site\.test\/unsubscribe\?token=abc/);
  assert.match(email.html, /href="http:\/\/site\.test\/unsubscribe\?token=abc"/);
});

Deno.test('digest: one email, every item once, the period in the subject', async () => {
  const items = [
    note('price_drop', {
      ...flight,
      oldPrice: 50000,
      newPrice: 45000,
      netSavings: 5000,
      qualifies: true,
      reason: 'ok',
    }),
    { ...note('rebooking', { ...flight, flightNumber: 'B6 9', newPrice: 30000 }), id: 2 },
  ];
  const weekly = await renderDigestEmail('weekly', items, { ...ctx, kind: 'digest' });
  assert.equal(weekly.subject, DIGEST_SUBJECTS.weekly);
  assert.match(weekly.text, /2 updates about your flights this week/i);
  assert.equal(weekly.text.match(/dropped from \$500\.00 to \$450\.00/g)?.length, 1);
  assert.equal(weekly.text.match(/New fare: \$300\.00/g)?.length, 1);
  const daily = await renderDigestEmail('daily', items.slice(0, 1), { ...ctx, kind: 'digest' });
  assert.equal(daily.subject, DIGEST_SUBJECTS.daily);
  assert.match(daily.text, /1 update about your flights today/i);
});
