import assert from 'node:assert/strict';
import {
  DIGEST_SUBJECTS,
  type EmailContext,
  type Notification,
  readNotification,
  renderDigestEmail,
  renderNotificationEmail,
  subjectOf,
} from './index.ts';

const ctx: EmailContext = {
  username: 'ada',
  siteUrl: 'http://site.test',
  supportEmail: 'support@fareback.app',
  unsubscribeUrl: 'http://site.test/unsubscribe?token=abc',
  kind: 'rebooking',
};

/** A stored row as the outbox reads it, checked against its type's schema as a send checks it. */
function note(type: string, data: Record<string, unknown>): Notification {
  const read = readNotification({ id: 1, type, data, createdAt: new Date('2026-11-24T09:00:00Z') });
  if (!read.ok) throw new Error(read.reason);
  return read.note;
}

const flight = { airline: 'JetBlue Airways', flightNumber: 'B6 123', departureAirport: 'JFK', arrivalAirport: 'LAX' };

/** Renders, checks what every email has, and answers the plain text and the HTML. */
async function rendered(n: Notification, context: EmailContext = ctx) {
  const email = await renderNotificationEmail(n, context);
  assert.equal(email.subject, subjectOf(n.type));
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
  const data = { ...flight, netSavings: 6400, refundForm: 'credit', link: 'https://jetblue.example/manage' };
  const email = await rendered(note('action_needed', data));
  assert.match(
    email.text,
    /Ask JetBlue Airways to change booking B6 123 to the same flights at the current fare and to return the difference as a travel credit\./,
  );
  assert.match(email.text, /\$64\.00/);
  assert.match(email.html, /href="https:\/\/jetblue\.example\/manage"/);
  const cash = await rendered(note('action_needed', { ...data, refundForm: 'cash' }));
  assert.match(cash.text, /return the difference as a refund\./);
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
    const account = { ...ctx, kind: null, unsubscribeUrl: null };
    const payment = await rendered(
      note('payment_failed', { purpose: 'subscription', amount: 2499, reason: 'card declined' }),
      account,
    );
    assert.match(payment.text, /Amount: \$24\.99/);
    assert.match(payment.text, /Reason: card declined/);
    assert.match(payment.text, /Update your payment method to keep your plan\./);
    assert.ok(!payment.text.includes('Unsubscribe'), 'account messages have no unsubscribe link');
    const commission = await rendered(
      note('payment_failed', { purpose: 'commission', amount: 700, reason: 'card declined' }),
      account,
    );
    assert.match(commission.text, /The commission is still owed; you can pay it from your dashboard\./);
    const statement = await rendered(
      note('commission_statement', {
        periodStart: '2026-10-01',
        periodEnd: '2026-10-31',
        credits: 40000,
        commissionDue: 10000,
        charged: true,
      }),
    );
    assert.match(statement.text, /October 1, 2026 to October 31, 2026/);
    assert.match(statement.text, /Airline credits won for you: \$400\.00/);
    assert.match(statement.text, /Commission due: \$100\.00/);
    assert.match(statement.text, /\$100\.00 was charged to your saved card\./);
    const due = { periodStart: '2026-10-01', periodEnd: '2026-10-31', credits: 400, commissionDue: 100, charged: false };
    assert.match(
      (await rendered(note('commission_statement', due))).text,
      /\$1\.00 is due\. You can pay it from your dashboard\./,
    );
    assert.match(
      (await rendered(note('commission_statement', { ...due, commissionDue: 0 }))).text,
      /Nothing is due\./,
    );
    assert.match((await rendered(note('email_reconnect', { provider: 'gmail' }))).text, /read your Gmail inbox/);
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
    const none = await rendered(note('subscription_expired', { endDate: '2026-10-24', flightLimit: 5, unwatched: 0 }), {
      ...ctx,
      kind: null,
      unsubscribeUrl: null,
    });
    assert.match(none.text, /watches up to 5 flights\.\s+Nothing was deleted\./);
  },
);

Deno.test('payment_refunded, refund_held and admin_alert: the refund of money that found nothing owed', async () => {
  const account = { ...ctx, kind: null, unsubscribeUrl: null };
  const refunded = await rendered(note('payment_refunded', { amount: 1800, paymentAmount: 1800, applied: 0 }), account);
  assert.equal(refunded.subject, 'A FareBack payment was refunded to your card');
  assert.match(refunded.text, /Commission payment refunded/);
  assert.match(
    refunded.text,
    /Your card payment of \$18\.00 arrived when nothing more was owed, so \$18\.00 has been refunded to your card\./,
  );
  const part = await rendered(note('payment_refunded', { amount: 500, paymentAmount: 1800, applied: 1300 }), account);
  assert.match(part.text, /arrived when only part of it was owed, so \$5\.00 has been refunded/);

  const held = await rendered(note('refund_held', { paymentId: 'pi_1', amount: 1200 }), account);
  assert.equal(held.subject, 'Your FareBack refund is delayed');
  assert.match(held.text, /Refund delayed: your money is held/);
  assert.match(
    held.text,
    /We could not refund \$12\.00 of your commission payment to your card\. The money is held for you and our team has been told; they will refund it to you\./,
  );

  const who = { userId: '7f0c4a52-1d2e-4c35-9a8b-3f1e2d4c5b6a', username: 'ada', paymentId: 'pi_1', amount: 1200 };
  const failed = await rendered(
    note('admin_alert', { ...who, event: 'commission_refund_failed', reason: 'charge_disputed' }),
    account,
  );
  assert.equal(failed.subject, 'FareBack admin alert');
  assert.match(failed.text, /Commission refund failed/);
  assert.match(
    failed.text,
    /The refund of \$12\.00 to ada \(a commission payment that found nothing owed, payment pi_1\) failed: charge_disputed\. It will be retried\./,
  );
  const given = await rendered(
    note('admin_alert', { ...who, username: null, event: 'commission_refund_held', reason: 'charge_disputed' }),
    account,
  );
  assert.match(given.text, /Commission refund given up: money held/);
  assert.match(given.text, new RegExp(`The refund of \\$12\\.00 to ${who.userId} \\(payment pi_1\\) failed on its last attempt`));
  assert.match(given.text, /refund it by hand or requeue the dead commission_refund job\./);
  const done = await rendered(
    note('admin_alert', { ...who, event: 'commission_refunded', refundId: 're_1', amount: 1800 }),
    account,
  );
  assert.match(
    done.text,
    /A commission payment of ada arrived when the debt was already paid: \$18\.00 was refunded to their card \(payment pi_1\)\./,
  );
  assert.match(done.html, /href="http:\/\/site\.test\/admin"/);
});

Deno.test('a row the templates cannot read answers why: an unknown type, missing or wrong data', () => {
  const row = (type: string, data: unknown) => ({ id: 7, type, data, createdAt: new Date() });
  const unknown = readNotification(row('something_new', {}));
  assert.deepEqual(unknown, { ok: false, reason: 'No email template for notification type "something_new".' });
  const bare = readNotification(row('rebooking', {}));
  assert.ok(!bare.ok);
  assert.match(bare.reason, /^The data of this rebooking notification does not fit its template: /);
  assert.match(bare.reason, /newPrice/);
  const wrong = readNotification(row('price_drop', { ...flight, oldPrice: '500', newPrice: 400, netSavings: 100 }));
  assert.ok(!wrong.ok);
  assert.match(wrong.reason, /oldPrice/);
  assert.ok(!readNotification(row('credit_expiring', null)).ok);
  assert.ok(!readNotification(row('admin_alert', { event: 'unheard_of' })).ok);
});

Deno.test('the subject never carries the row title or user text; HTML escapes user text', async () => {
  const email = await rendered(
    note('flight_cancelled', {
      airline: '<script>alert(1)</script>',
      flightNumber: 'X',
      departureAirport: 'A',
      arrivalAirport: 'B',
    }),
  );
  assert.equal(email.subject, 'The airline cancelled one of your flights');
  assert.ok(!email.html.includes('<script>'));
  assert.match(email.html, /&lt;script&gt;/);
});

Deno.test('the unsubscribe link is in both parts when there is one', async () => {
  const email = await rendered(
    note('rebooking', { ...flight, newPrice: 41000, credit: 9000, reference: null, creditExpiresAt: null }),
  );
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
    {
      ...note('rebooking', {
        ...flight,
        flightNumber: 'B6 9',
        newPrice: 30000,
        credit: 5000,
        reference: 'CR-1',
        creditExpiresAt: '2027-11-24',
      }),
      id: 2,
    },
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
