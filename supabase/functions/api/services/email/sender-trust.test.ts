import assert from 'node:assert/strict';
import {
  domainOfAddress,
  GMAIL_SCAN_QUERY,
  isKnownBookingSender,
  registrableDomain,
  senderVerdict,
} from './sender-trust.ts';

const message = (headers: string[]) => [...headers, 'From: Delta <DeltaAirLines@t.delta.com>', '', 'body'].join('\r\n');

Deno.test('registrable domains: subdomains fold, country second levels count as suffixes', () => {
  assert.equal(registrableDomain('t.delta.com'), 'delta.com');
  assert.equal(registrableDomain('Email.BA.com.'), 'ba.com');
  assert.equal(registrableDomain('mail.airline.co.uk'), 'airline.co.uk');
  assert.equal(registrableDomain('co.uk'), null);
  assert.equal(registrableDomain('localhost'), null);
  assert.equal(domainOfAddress('United <notifications@united.com>'), 'united.com');
  assert.equal(isKnownBookingSender('booking-lufthansa.com'), true);
  assert.equal(isKnownBookingSender('fly-deals.example'), false);
});

Deno.test("the receiver's Authentication-Results decide: DMARC pass for the From domain, else DKIM or SPF", () => {
  const pass = senderVerdict(
    message([
      'Authentication-Results: mx.google.com; dkim=pass header.i=@t.delta.com header.s=s1 header.b=abc; spf=pass (google.com: domain of bounce@t.delta.com designates 1.2.3.4 as permitted sender) smtp.mailfrom=bounce@t.delta.com; dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=t.delta.com',
    ]),
    'DeltaAirLines@t.delta.com',
  );
  assert.deepEqual(pass, { domain: 'delta.com', authenticated: true, basis: 'authentication-results' });
  const spoofed = senderVerdict(
    message([
      'Authentication-Results: mx.google.com;',
      ' spf=pass smtp.mailfrom=x@fly-deals.example;',
      ' dmarc=fail (p=REJECT) header.from=delta.com',
    ]),
    'DeltaAirLines@t.delta.com',
  );
  assert.equal(spoofed.authenticated, false);
  // signed by another domain, no DMARC result
  const otherSigner = senderVerdict(
    message(['Authentication-Results: mx.google.com; dkim=pass header.d=fly-deals.example; spf=neutral']),
    'DeltaAirLines@t.delta.com',
  );
  assert.equal(otherSigner.authenticated, false);
  // only the topmost (the receiver's) counts: a forged pass below it is not read
  const forgedBelow = senderVerdict(
    message([
      'Authentication-Results: mx.google.com; dkim=fail header.d=delta.com',
      'Authentication-Results: mx.google.com; dmarc=pass header.from=delta.com',
    ]),
    'DeltaAirLines@t.delta.com',
  );
  assert.equal(forgedBelow.authenticated, false);
});

Deno.test(
  'without results: ARC, else the DKIM signatures must not name another domain; nothing at all is unchecked',
  () => {
    const arc = senderVerdict(
      message(['ARC-Authentication-Results: i=1; mx.example.net; dmarc=pass header.from=delta.com']),
      'x@t.delta.com',
    );
    assert.deepEqual([arc.authenticated, arc.basis], [true, 'arc']);
    const signedElsewhere = senderVerdict(
      message(['DKIM-Signature: v=1; a=rsa-sha256; d=fly-deals.example; s=k; h=from; bh=x; b=y']),
      'x@t.delta.com',
    );
    assert.deepEqual([signedElsewhere.authenticated, signedElsewhere.basis], [false, 'dkim-signature']);
    const signedHere = senderVerdict(message(['DKIM-Signature: v=1; d=t.delta.com; s=k; b=y']), 'x@t.delta.com');
    assert.equal(signedHere.authenticated, true);
    assert.deepEqual(senderVerdict(message([]), 'x@t.delta.com'), {
      domain: 'delta.com',
      authenticated: true,
      basis: 'unchecked',
    });
    assert.equal(senderVerdict(message([]), 'nobody').basis, 'no-domain');
  },
);

Deno.test('the scan query is known senders AND subject words (no top-level OR)', () => {
  assert.ok(!GMAIL_SCAN_QUERY.includes('{'), GMAIL_SCAN_QUERY);
  assert.match(GMAIL_SCAN_QUERY, /^from:\(united\.com OR .*booking-lufthansa\.com OR .*\) subject:\(flight OR /);
  assert.match(GMAIL_SCAN_QUERY, / newer_than:2y -in:chats -in:spam$/);
});
