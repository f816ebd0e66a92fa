// The address confirmation is rendered by the notification emails' layout: the styled frame and
// button in the HTML part, the link in the plain-text part, and no greeting (it names no one).
import assert from 'node:assert/strict';
import { CONFIRMATION_SUBJECT, confirmationEmail } from './email-confirmation.ts';

Deno.test('the confirmation email uses the shared layout: a button, the footer, the link in both parts', async () => {
  const link = 'http://site.test/confirm-email?token=abc';
  const email = await confirmationEmail(link, { siteUrl: 'http://site.test', supportEmail: 'support@fareback.app' });
  assert.equal(email.subject, CONFIRMATION_SUBJECT);
  assert.match(email.html, /^<!DOCTYPE html/);
  // the layout's button (React Email renders it as a styled link) and its frame
  assert.match(
    email.html,
    /<a href="http:\/\/site\.test\/confirm-email\?token=abc"[^>]*style="[^"]*background-color:#2b6cb0/,
  );
  assert.match(email.html, /max-width:560px/);
  assert.ok(email.text.includes(link));
  assert.ok(email.text.includes('Questions? Write to support@fareback.app.'));
  assert.ok(!email.text.includes('Hi '));
  assert.match(email.text, /^Confirm your email address/);
});
