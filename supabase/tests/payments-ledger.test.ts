// The commission ledger always adds up: for every traveller, the commissions recorded at their
// rebookings (each credit x the rate of the plan they were on) = commission owed + commission
// paid, after any sequence of rebookings, plan changes, payments started, succeeded, failed or
// refunded (in any order, replayed), and statements closed; and (issue 25) subscription payments
// and renewals that succeed, fail or are refunded, card changes, downgrades now or at the period
// end, and paid years lapsing to Free. Each flight keeps the commission recorded with it, whatever
// the plan does later. Runs the api's own recording
// (recordRebooking) and payment functions on real PostgreSQL, as the api's service connection.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Tx as ApiTx } from '../functions/api/db.ts';
import {
  abandonPayment,
  attachCommissionIntent,
  claimCommissionPayment,
  closeCommissionPeriod,
  insertPayment,
  moveToFreePlan,
  renewalFailed,
  renewalsDue,
  saveCard,
  setRenewal,
  paymentFailed,
  paymentRefunded,
  paymentSucceeded,
  queueUnappliedRefund,
  recordUnappliedRefund,
  unappliedRefundDue,
} from '../functions/api/queries/billing.ts';
import { recordRebooking } from '../functions/api/queries/flights.ts';
import { createFlight, createRebooking, createUser, openTestDatabase, setPlan, type TestDb } from './factories.ts';

let db: TestDb;
let rates: { free: number; premium: number };
let premiumPlanId: number;

beforeAll(async () => {
  db = await openTestDatabase();
  const rows = await db.sql<{ tier: 'free' | 'premium'; rate: number }[]>`
    select distinct on (tier) tier, coalesce(commission_rate, 0) as rate
      from public.subscription_plans order by tier, id`;
  rates = { free: 0, premium: 0 };
  for (const r of rows) rates[r.tier] = r.rate;
  const [premium] = await db.sql<{ id: number }[]>`
    select id::int from public.subscription_plans where tier = 'premium' and is_active order by id limit 1`;
  premiumPlanId = premium?.id ?? 0;
});

afterAll(async () => {
  await db?.close();
});

type Op =
  | { op: 'rebook'; credit: number }
  | { op: 'plan'; tier: 'free' | 'premium' }
  | { op: 'pay' }
  | { op: 'succeed' | 'fail' | 'refund' | 'refundUnapplied'; pick: number }
  | { op: 'statement'; month: number }
  | { op: 'subscribe' }
  | { op: 'renew'; ok: boolean }
  | { op: 'card' }
  | { op: 'downgrade'; at: 'now' | 'period_end' }
  | { op: 'lapse' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('rebook' as const), credit: fc.integer({ min: 0, max: 250_000 }) }),
  fc.record({ op: fc.constant('plan' as const), tier: fc.constantFrom('free' as const, 'premium' as const) }),
  fc.record({ op: fc.constant('pay' as const) }),
  fc.record({
    op: fc.constantFrom('succeed' as const, 'fail' as const, 'refund' as const, 'refundUnapplied' as const),
    pick: fc.nat(20),
  }),
  fc.record({ op: fc.constant('statement' as const), month: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('subscribe' as const) }),
  fc.record({ op: fc.constant('renew' as const), ok: fc.boolean() }),
  fc.record({ op: fc.constant('card' as const) }),
  fc.record({ op: fc.constant('downgrade' as const), at: fc.constantFrom('now' as const, 'period_end' as const) }),
  fc.record({ op: fc.constant('lapse' as const) }),
);

/** A day after a year from now: every paid year has ended (the injectable clock of the passes). */
const yearLater = () => new Date(Date.now() + 367 * 86_400_000);

/** The model of the ledger's commission rule (private.commission_on): the rate of the credit, half up. */
const commissionOn = (credit: number, ratePercent: number): number =>
  credit <= 0 || ratePercent <= 0 ? 0 : Math.round((credit * ratePercent) / 100);

const tx = <T>(fn: (t: ApiTx) => Promise<T>): Promise<T> =>
  db.sql.begin((t) => fn(t as unknown as ApiTx)) as Promise<T>;

it('credits x rate = commission owed + commission paid, whatever happens', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
      const user = await createUser(db.sql, { premium: true });
      let expected = 0; // sum of commissionOn(credit, rate at the time)
      const recordedByFlight = new Map<number, number>();
      const payments: string[] = [];

      for (const step of ops) {
        switch (step.op) {
          case 'rebook': {
            const flightId = await createFlight(db.sql, user.id, { status: 'rebooking' });
            const rebookingId = await createRebooking(db.sql, flightId, user.id, 'claimed');
            const recorded = await tx((t) =>
              recordRebooking(t, {
                rebookingId,
                userId: user.id,
                flightId,
                newPrice: 30_000,
                airlineCredit: step.credit,
                creditReference: null,
                creditExpiryDate: '2027-12-31',
                seatNumber: null,
                rebookedAt: new Date(),
              }),
            );
            // the plan the traveller is on now (a lapse, a refund or a downgrade may have changed it)
            const [{ tier = 'free' } = {}] = await db.sql<{ tier: 'free' | 'premium' }[]>`
              select sp.tier from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id
               where p.id = ${user.id}`;
            expect(recorded?.commission).toBe(commissionOn(step.credit, rates[tier]));
            expected += commissionOn(step.credit, rates[tier]);
            recordedByFlight.set(flightId, commissionOn(step.credit, rates[tier]));
            break;
          }
          case 'plan':
            await setPlan(db.sql, user.id, step.tier);
            break;
          case 'pay': {
            const [row] = await db.sql<
              { owed: number }[]
            >`select commission_owed as owed from public.profiles where id = ${user.id}`;
            if (!row || row.owed <= 0) break;
            // as POST /api/stripe/pay-commission does: the debt claimed first (an earlier debt's
            // pending payment given up), then the provider's intent named on the claimed row
            const claim = await tx(async (t) => {
              const first = await claimCommissionPayment(t, user.id);
              if (!first?.staleId) return first;
              await abandonPayment(t, first.staleId);
              return await claimCommissionPayment(t, user.id);
            });
            if (!claim || claim.paymentId !== claim.debtKey) break; // the same debt: the same payment
            const id = `pi_prop_${randomUUID()}`;
            await tx((t) => attachCommissionIntent(t, claim.debtKey, id, 'Commission payment'));
            payments.push(id);
            break;
          }
          case 'succeed':
          case 'fail':
          case 'refund':
          case 'refundUnapplied': {
            const id = payments[step.pick % Math.max(payments.length, 1)];
            if (!id) break;
            if (step.op === 'succeed') {
              await tx(async (t) => {
                await paymentSucceeded(t, id, 'pm_card_visa');
                await queueUnappliedRefund(t, id);
              });
            } else if (step.op === 'fail') await tx((t) => paymentFailed(t, id, 'Your card was declined.'));
            else if (step.op === 'refund') await tx((t) => paymentRefunded(t, id));
            else {
              // the commission_refund job: what the payment could not apply goes back, once
              await tx(async (t) => {
                const due = await unappliedRefundDue(t, id);
                if (due) await recordUnappliedRefund(t, id, `re_prop_${id}`, due.amount);
              });
            }
            break;
          }
          case 'subscribe': {
            // a year paid by card (the card form): succeeded, failed or refunded by the ops above
            const id = `pi_sub_${randomUUID()}`;
            await tx((t) =>
              insertPayment(t, {
                id,
                userId: user.id,
                purpose: 'subscription',
                planId: premiumPlanId,
                amount: 2499,
                description: 'Premium subscription (one year)',
              }),
            );
            payments.push(id);
            break;
          }
          case 'renew': {
            // the daily pass a year on: the renewal charge due, paid or declined
            const now = yearLater();
            const due = (await tx((t) => renewalsDue(t, now))).filter((d) => d.userId === user.id);
            for (const renewal of due) {
              if (!step.ok) {
                await tx((t) => renewalFailed(t, user.id, now));
                continue;
              }
              const id = `pi_renew_${randomUUID()}`;
              await tx(async (t) => {
                await insertPayment(t, {
                  id,
                  userId: user.id,
                  purpose: 'subscription',
                  planId: renewal.planId,
                  amount: renewal.amount,
                  description: 'Premium renewal',
                });
                await paymentSucceeded(t, id, renewal.paymentMethodId);
              });
              payments.push(id);
            }
            break;
          }
          case 'card':
            await tx((t) => saveCard(t, user.id, `pm_card_${randomUUID().slice(0, 8)}`));
            break;
          case 'downgrade':
            if (step.at === 'now') await tx((t) => moveToFreePlan(t, user.id));
            await tx((t) => setRenewal(t, user.id, false));
            break;
          case 'lapse':
            await db.sql`select private.expire_subscriptions(${yearLater()})`;
            break;
          case 'statement': {
            const start = `2026-${String(step.month).padStart(2, '0')}-01`;
            const end = new Date(Date.UTC(2026, step.month, 0)).toISOString().slice(0, 10);
            await tx((t) => closeCommissionPeriod(t, user.id, start, end));
            break;
          }
        }

        const [state] = await db.sql<{ owed: number; paid: number; recorded: number; applied: number }[]>`
          select p.commission_owed as owed, p.commission_paid as paid,
                 (select coalesce(sum(r.commission), 0)::int from private.rebookings r
                   where r.user_id = p.id and r.state = 'recorded') as recorded,
                 (select coalesce(sum(x.applied), 0)::int from private.payments x
                   where x.user_id = p.id and x.status = 'succeeded') as applied
            from public.profiles p where p.id = ${user.id}`;
        expect(state?.recorded).toBe(expected);
        expect((state?.owed ?? -1) + (state?.paid ?? -1)).toBe(expected);
        expect(state?.owed).toBeGreaterThanOrEqual(0);
        expect(state?.paid).toBe(state?.applied);
        // never more goes back than the payment could not apply
        const [overRefunded] = await db.sql<{ n: number }[]>`
          select count(*)::int as n from private.payments
           where user_id = ${user.id} and applied + unapplied_refunded > amount`;
        expect(overRefunded?.n).toBe(0);
        // each flight's commission is the one recorded with its rebooking, whatever came after
        const flights = await db.sql<{ id: number; commission: number | null }[]>`
          select id::int, commission_amount as commission from public.flights
           where user_id = ${user.id} and has_been_rebooked`;
        for (const f of flights) expect(f.commission ?? 0).toBe(recordedByFlight.get(f.id));
      }
    }),
    { numRuns: 40 },
  );
});
