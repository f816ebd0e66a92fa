// Giving back what a succeeded commission payment could not apply (the debt was paid meanwhile):
// the commission_refund job settlement.ts queues.
import { recordUnappliedRefund, recordUnappliedRefundFailure, unappliedRefundDue } from '../../queries/billing.ts';
import { type JobHandler, PermanentJobError } from '../job-runner.ts';

/**
 * Refunds what a succeeded commission payment could not apply (commission_refund jobs, queued in
 * the transaction that applied it). The refund's key names the payment, so a retried job refunds
 * once; it is recorded (a refund billing row, the traveller told, the admins alerted) with the
 * job's completion. A failed attempt alerts the admins (once per payment); the last one holds the
 * money for the traveller (recordUnappliedRefundFailure).
 */
export const commissionRefundJob: JobHandler<{ paymentId?: string }> = {
  kind: 'commission_refund',
  leaseSeconds: 120,
  async run(job, ctx) {
    const paymentId = job.payload.paymentId;
    if (!paymentId) throw new PermanentJobError('A commission refund job needs a paymentId');
    const deps = ctx.deps;
    const due = await deps.db.asService((tx) => unappliedRefundDue(tx, paymentId));
    if (!due) return;
    let refund: { id: string };
    try {
      refund = await deps.payments.refundPayment({
        paymentIntentId: paymentId,
        amount: due.amount,
        idempotencyKey: `unapplied:${paymentId}`,
        metadata: { userId: due.userId, purpose: 'commission_unapplied' },
      });
    } catch (error) {
      // refused or unreachable: the admins are told now (once per payment) and, on the last
      // attempt (the job's attempts reaching its max, as private.fail_job decides), the money is
      // held and the traveller told; the error then gives the job back to the queue as before
      const reason = error instanceof Error ? error.message : String(error);
      const outcome = await deps.db.asService((tx) => recordUnappliedRefundFailure(tx, job.id, paymentId, reason));
      deps.log({ level: 'error', msg: 'commission refund failed', paymentId, outcome, error: reason });
      throw error;
    }
    await ctx.finish(async (tx) => {
      await recordUnappliedRefund(tx, paymentId, refund.id, due.amount);
      return { refundId: refund.id, amount: due.amount };
    });
    deps.log({
      level: 'warn',
      msg: 'commission payment refunded: nothing was owed for it',
      paymentId,
      refundId: refund.id,
      amount: due.amount,
      userId: due.userId,
    });
  },
};
