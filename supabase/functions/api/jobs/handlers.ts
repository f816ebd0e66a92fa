// Every kind of queued work the api runs through services/job-runner.ts, in the order a run
// claims them, recurring kinds included (their `recurring` says how often): this list is the
// whole schedule. An area adds its handler here (and its kind's row to private.job_kinds in its
// migration). The price sweep comes first, so the run where its period's job is due gives it
// most of the budget. A sweep's `price_check` batches are not here: the price_sweep job runs them.
import { autoRebookBatchHandler, autoRebookOwnHandler } from '../services/auto-rebooking.ts';
import { priceDropConfirmJob } from '../services/drop-confirmation.ts';
import { commissionRefundJob } from '../services/billing/refunds.ts';
import { commissionStatementsJob } from '../services/billing/statements.ts';
import { emailScanHandler, emailScanScheduleHandler } from '../services/email/scan.ts';
import { inboundEmailHandler } from '../services/email/inbound.ts';
import type { JobHandler } from '../services/job-runner.ts';
import { maintenanceJob } from '../services/maintenance.ts';
import { NOTIFICATION_HANDLERS } from '../services/notifications.ts';
import { firstPriceCheckHandler } from '../services/flights.ts';
import { priceSweepJob } from '../services/price-sweep.ts';
import { subscriptionExpiryJob } from '../services/subscription-expiry.ts';

export const JOB_HANDLERS: readonly JobHandler<never>[] = [
  priceSweepJob as JobHandler<never>,
  firstPriceCheckHandler as JobHandler<never>,
  // a drop's second quote comes before its alert and before any automatic rebooking of it
  priceDropConfirmJob as JobHandler<never>,
  maintenanceJob as JobHandler<never>,
  ...(NOTIFICATION_HANDLERS as readonly JobHandler<never>[]),
  commissionStatementsJob as JobHandler<never>,
  subscriptionExpiryJob as JobHandler<never>,
  commissionRefundJob as JobHandler<never>,
  emailScanScheduleHandler as JobHandler<never>,
  emailScanHandler as JobHandler<never>,
  inboundEmailHandler as JobHandler<never>,
  autoRebookOwnHandler as JobHandler<never>,
  autoRebookBatchHandler as JobHandler<never>,
];

/** The kinds of JOB_HANDLERS: what `POST /api/internal/jobs` may be asked to run. */
export const JOB_KINDS: readonly string[] = JOB_HANDLERS.map((handler) => handler.kind);
