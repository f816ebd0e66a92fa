// Every kind of queued work the api runs through services/job-runner.ts, in the order a run
// claims them. An area adds its handler here (and its kind's row to private.job_kinds in its
// migration). The price sweep's `price_check` batches are not here: the sweep runs them itself.
import { autoRebookBatchHandler, autoRebookOwnHandler } from '../services/auto-rebooking.ts';
import { commissionRefundJob } from '../services/billing/refunds.ts';
import { commissionStatementsJob } from '../services/billing/statements.ts';
import { emailScanHandler, emailScanScheduleHandler } from '../services/email/scan.ts';
import { inboundEmailHandler } from '../services/email/inbound.ts';
import type { JobHandler } from '../services/job-runner.ts';
import { NOTIFICATION_HANDLERS } from '../services/notifications.ts';
import { subscriptionExpiryJob } from '../services/subscription-expiry.ts';

export const JOB_HANDLERS: readonly JobHandler<never>[] = [
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
