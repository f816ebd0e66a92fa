// The inbox scan: one queued job (kind `email_scan`) per scan of a traveller's connected mailbox.
// It lists the messages (Gmail: the confirmation search, newest first, or the history since the
// last scan; locally the sample mailbox), skips those read before, then fetches, extracts and
// imports one message at a time, writing the progress after each so the traveller watches it
// move. A run works for at most SCAN_RUN_MS and hands the rest to a follow-up job (the queue's
// attempts are for failures, not for long mailboxes). Gmail's 429s and quota errors put the scan
// in `waiting` and give the job back for the time Gmail asked (RetryJobError); a token Google
// refuses marks the connection 'needs reconnect', tells the traveller, and ends the scan (no
// retry loop).
import { refreshAccessToken } from '../../../_shared/mailbox/google.ts';
import {
  createMailbox,
  GmailRateLimitError,
  GmailUnauthorizedError,
  GoogleGrantError,
  type Mailbox,
} from '../../../_shared/mailbox/index.ts';
import type { AppDeps } from '../../context.ts';
import { enqueueJob } from '../../queries/jobs.ts';
import {
  alreadyRead,
  getStoredConnection,
  markNeedsReconnect,
  promoteFoundFlights,
  queueOverLimitNotice,
  saveHistoryId,
  scanOf,
  updateAccessToken,
  updateScan,
} from '../../queries/email.ts';
import { flightAllowance } from '../../queries/flights.ts';
import { type JobHandler, RetryJobError, runDueJobs } from '../job-runner.ts';
import { runAfterResponse } from '../../lib/after-response.ts';
import { importEmail, readEmail } from './importer.ts';
import { GMAIL_SCAN_QUERY } from './sender-trust.ts';
import { createTokenCipher } from './token-crypto.ts';

export const EMAIL_SCAN_KIND = 'email_scan';
const SCAN_RUN_MS = 40_000;
const LEASE_SECONDS = 120;

export const RECONNECT_MESSAGE = 'Google no longer grants FareBack access to this inbox. Connect your Gmail again.';

interface ScanPayload {
  scanId: number;
  userId: string;
  part?: number;
}

class NeedsReconnectError extends Error {}

async function mailboxFor(deps: AppDeps, userId: string): Promise<Mailbox | null> {
  const connection = await deps.db.asService((tx) => getStoredConnection(tx, userId));
  if (!connection || connection.status !== 'connected') return null;
  if (connection.provider === 'sample') {
    return createMailbox({ kind: 'sample', devMailboxDir: deps.config.email.devMailboxDir });
  }
  const config = deps.config.email;
  if (!config.tokenKey) throw new Error('EMAIL_TOKEN_KEY is not set');
  const cipher = await createTokenCipher(config.tokenKey);
  let access = connection.accessToken ? await cipher.decrypt(connection.accessToken, userId) : null;
  let expiresAt = connection.expiresAt ? new Date(connection.expiresAt) : new Date(0);
  const refresh = async (): Promise<string> => {
    if (!connection.refreshToken) throw new NeedsReconnectError('no refresh token');
    try {
      const tokens = await refreshAccessToken(config, await cipher.decrypt(connection.refreshToken, userId));
      access = tokens.accessToken;
      expiresAt = tokens.expiresAt;
      const sealed = await cipher.encrypt(tokens.accessToken, userId);
      await deps.db.asService((tx) => updateAccessToken(tx, userId, sealed, tokens.expiresAt));
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof GoogleGrantError) throw new NeedsReconnectError(error.message);
      throw error;
    }
  };
  return createMailbox({
    kind: 'gmail',
    google: config,
    auth: {
      token: async () => (access && expiresAt.getTime() > Date.now() ? access : await refresh()),
      refresh,
    },
    query: GMAIL_SCAN_QUERY,
  });
}

export const emailScanHandler: JobHandler<ScanPayload> = {
  kind: EMAIL_SCAN_KIND,
  leaseSeconds: LEASE_SECONDS,
  async run(job, ctx) {
    const { deps } = ctx;
    const { scanId, userId } = job.payload;
    const started = Date.now();
    const scan = await deps.db.asService((tx) => scanOf(tx, scanId));
    if (!scan || scan.status === 'done' || scan.status === 'failed') return await ctx.finish();

    let mailbox: Mailbox | null;
    try {
      mailbox = await mailboxFor(deps, userId);
    } catch (error) {
      if (error instanceof NeedsReconnectError) return await reconnectNeeded(ctx, scanId, userId);
      throw error;
    }
    if (!mailbox) {
      return await ctx.finish((tx) =>
        updateScan(tx, scanId, { status: 'failed', error: 'Email is not connected', finished: true }),
      );
    }
    const stored = await deps.db.asService((tx) => getStoredConnection(tx, userId));
    const max = deps.config.email.scanMaxMessages;

    try {
      await deps.db.asService(async (tx) => {
        await updateScan(tx, scanId, { status: 'scanning' });
        await promoteFoundFlights(tx, userId);
      });
      const listing = await mailbox.list(stored?.historyId ?? null, max);
      const read = await deps.db.asService((tx) => alreadyRead(tx, userId, mailbox.via, listing.ids));
      // read oldest first, so a change or a cancellation comes after the booking it changes
      const todo = listing.ids.filter((id) => !read.has(id)).reverse();
      let scanned = listing.ids.length - todo.length;
      const total = listing.ids.length;
      await deps.db.asService((tx) => updateScan(tx, scanId, { mode: listing.mode, total, scanned }));

      for (const [index, id] of todo.entries()) {
        if (Date.now() - started > SCAN_RUN_MS) {
          // the rest in a follow-up job; this one completes
          const part = (job.payload.part ?? 0) + 1;
          return await ctx.finish(async (tx) => {
            await enqueueJob(tx, {
              kind: EMAIL_SCAN_KIND,
              payload: { scanId, userId, part },
              dedupeKey: `email_scan:${scanId}:${part}`,
            });
          });
        }
        if (index > 0 && index % 25 === 0 && !(await ctx.extendLease(LEASE_SECONDS))) return;
        const raw = await mailbox.fetch(id);
        const email = await readEmail(raw);
        const result = await importEmail(deps.db, { userId, via: mailbox.via, messageId: id, email });
        scanned += 1;
        await deps.db.asService((tx) =>
          updateScan(tx, scanId, {
            scanned,
            add: result
              ? {
                  found: result.counts.found,
                  updated: result.counts.updated,
                  cancelled: result.counts.cancelled,
                  notWatched: result.counts.notWatched,
                  held: result.counts.held,
                }
              : {},
          }),
        );
      }

      await ctx.finish(async (tx) => {
        await updateScan(tx, scanId, { status: 'done', finished: true });
        await saveHistoryId(tx, userId, listing.historyId);
        const done = await scanOf(tx, scanId);
        if (done && done.flightsNotWatched > 0) {
          const { flightLimit, watched } = await flightAllowance(tx, userId);
          await queueOverLimitNotice(
            tx,
            userId,
            { found: done.flightsNotWatched, watched, limit: flightLimit },
            `import_over_limit:scan:${scanId}`,
          );
        }
        return { scanned: done?.scanned ?? 0, total: done?.total ?? 0 };
      });
    } catch (error) {
      if (error instanceof NeedsReconnectError || error instanceof GmailUnauthorizedError) {
        return await reconnectNeeded(ctx, scanId, userId);
      }
      if (error instanceof GmailRateLimitError) {
        await deps.db.asService((tx) =>
          updateScan(tx, scanId, {
            status: 'waiting',
            retryAt: error.retryAt,
            error: 'Gmail asked FareBack to slow down',
          }),
        );
        throw new RetryJobError('Gmail rate limit', error.retryAt);
      }
      await deps.db.asService((tx) =>
        updateScan(tx, scanId, { status: 'waiting', error: 'Gmail could not be read; trying again shortly' }),
      );
      throw error;
    }
  },
};

async function reconnectNeeded(ctx: Parameters<JobHandler['run']>[1], scanId: number, userId: string): Promise<void> {
  await ctx.finish(async (tx) => {
    await markNeedsReconnect(tx, userId, 'Google refused the stored token');
    await updateScan(tx, scanId, { status: 'failed', error: RECONNECT_MESSAGE, finished: true });
  });
}

/** How often a connected mailbox is scanned again without being asked. */
export const RESCAN_MINUTES = 60;

/**
 * Once an hour: a scan for every connected mailbox not synced within the hour
 * (private.open_due_email_scans; migration 20261125300100_email_scan_schedule.sql).
 */
export const emailScanScheduleHandler: JobHandler<{ hour: string }> = {
  kind: 'email_scan_due',
  leaseSeconds: 60,
  recurring(now) {
    const hour = now.toISOString().slice(0, 13);
    return [{ kind: 'email_scan_due', payload: { hour }, dedupeKey: `email_scan_due:${hour}` }];
  },
  async run(_job, ctx) {
    await ctx.finish(async (tx) => {
      const since = new Date(Date.now() - RESCAN_MINUTES * 60_000);
      const [row] = await tx<{ opened: number }[]>`select private.open_due_email_scans(${since}) as opened`;
      return { opened: Number(row?.opened ?? 0) };
    });
  },
};

/** Starts the queued scans now instead of at the scheduler's next call (after the answer is sent). */
export function kickScans(deps: AppDeps): void {
  runAfterResponse(deps.log, 'email scan', () =>
    runDueJobs(deps, [emailScanHandler as JobHandler<never>], { kinds: [EMAIL_SCAN_KIND], budgetMs: 45_000 }),
  );
}
