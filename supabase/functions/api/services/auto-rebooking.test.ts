import assert from 'node:assert/strict';
import type { RebookRequest } from '../../_shared/fare-source/types.ts';
import { executeMessage } from './auto-rebooking.ts';
import { isReadableRebookResult } from './flights.ts';

const totals = {
  finished: true,
  flightsEvaluated: 3,
  flightsRebooked: 2,
  savings: 5000,
  actionNeeded: 0,
  success: true,
  errorMessage: null,
};

Deno.test('execute message: counts, assisted tickets, work left, failures', () => {
  assert.equal(executeMessage(totals), 'Auto-rebooking complete: 3 flights checked, 2 flights rebooked.');
  assert.equal(
    executeMessage({ ...totals, flightsEvaluated: 1, flightsRebooked: 1 }),
    'Auto-rebooking complete: 1 flight checked, 1 flight rebooked.',
  );
  assert.equal(
    executeMessage({ ...totals, flightsRebooked: 0, actionNeeded: 1 }),
    'Auto-rebooking complete: 3 flights checked, 0 flights rebooked. 1 ticket bought from the airline needs a change you make with the airline; we emailed you what to ask for.',
  );
  assert.match(executeMessage({ ...totals, finished: false }), /The rest continues in the background\.$/);
  assert.match(
    executeMessage({ ...totals, errorMessage: 'Fare source failed: down', success: false }),
    /will be retried in the next run\.$/,
  );
});

Deno.test('a rebook answer is recorded only when it can be read and makes sense', () => {
  const request = { pricePaid: 40000, maxPrice: 35000 } as RebookRequest;
  const good = {
    newPrice: 32000,
    currency: 'USD',
    airlineCredit: 8000,
    creditReference: 'UA-CR-ABC123',
    creditExpiryDate: '2027-11-24',
    seatNumber: null,
    rebookedAt: '2026-11-24T10:00:00.000Z',
  };
  assert.equal(isReadableRebookResult(good, request), true);
  for (const bad of [
    null,
    'ok',
    { ...good, newPrice: '32000' },
    { ...good, newPrice: 40000 },
    { ...good, airlineCredit: -1 },
    { ...good, airlineCredit: 40001 },
    { ...good, airlineCredit: 1.5 },
    { ...good, creditReference: '' },
    { ...good, creditExpiryDate: 'next year' },
    { ...good, rebookedAt: 'yesterday' },
  ]) {
    assert.equal(isReadableRebookResult(bad, request), false, JSON.stringify(bad));
  }
});
