// Audit rows for what an admin starts that is not a row change of its own: the manual runs. Each
// hook runs inside the transaction that totals the run's own row (services/price-sweep.ts,
// services/auto-rebooking.ts), so the run's totals and its audit row are written together, and
// records the counts the admin is answered.
import type { Tx } from '../db.ts';
import type { RunTotals } from '../queries/auto-rebooking.ts';
import { recordAdminAction } from '../queries/admin-audit.ts';
import type { PriceSweepResult } from './price-sweep.ts';

/** `run.price_check`: the sweep's id and the counts `POST /api/admin/run-price-check` answers. */
export function auditPriceCheckRun(adminId: string) {
  return (tx: Tx, sweep: PriceSweepResult) =>
    recordAdminAction(tx, {
      actorId: adminId,
      action: 'run.price_check',
      targetType: 'run',
      targetId: String(sweep.sweepId),
      targetLabel: 'Price check',
      after: {
        checkedCount: sweep.checkedCount,
        priceDropsFound: sweep.priceDropsFound,
        sweepId: sweep.sweepId,
        finished: sweep.finished,
      },
    });
}

/** `run.auto_rebooking`: the run's id and the counts `POST /api/admin/run-auto-rebooking` answers. */
export function auditAutoRebookingRun(adminId: string) {
  return (tx: Tx, run: RunTotals & { runId: number }) =>
    recordAdminAction(tx, {
      actorId: adminId,
      action: 'run.auto_rebooking',
      targetType: 'run',
      targetId: String(run.runId),
      targetLabel: 'Auto-rebooking',
      after: {
        rebookedCount: run.flightsRebooked,
        savingsAmount: run.savings,
        runId: run.runId,
        finished: run.finished,
      },
    });
}
