import assert from 'node:assert/strict';
import { skippedAttachmentsReason } from './importer.ts';

Deno.test('the import log names each attachment not read and why', () => {
  assert.equal(skippedAttachmentsReason([]), null);
  assert.equal(
    skippedAttachmentsReason([
      { filename: 'eticket.pdf', reason: 'is encrypted' },
      { filename: 'pass.pkpass', reason: 'does not match its signed manifest' },
    ]),
    'Not read: eticket.pdf is encrypted; pass.pkpass does not match its signed manifest',
  );
});

Deno.test('the import log says how many more attachments it could not name in its 300 characters', () => {
  const skipped = Array.from({ length: 1000 }, (_, index) => ({
    filename: `part-${index}.pdf`,
    reason: 'is past the first 20 attachments',
  }));
  const reason = skippedAttachmentsReason(skipped) ?? '';
  assert.ok(reason.length <= 300, reason);
  assert.match(reason, /^Not read: part-0\.pdf is past the first 20 attachments; part-1\.pdf .*; and \d+ more$/);
  const named = reason.match(/part-\d+\.pdf/g)?.length ?? 0;
  assert.equal(Number(/and (\d+) more$/.exec(reason)?.[1]), 1000 - named);
});

Deno.test('a file name too long for the log is cut, and the count still follows', () => {
  const reason = skippedAttachmentsReason([
    { filename: `${'x'.repeat(400)}.pdf`, reason: 'is encrypted' },
    { filename: 'return-ticket.pdf', reason: 'is encrypted' },
  ]);
  assert.ok((reason ?? '').length <= 300);
  assert.match(reason ?? '', /; and 1 more$/);
});
