// The local stand-in for pg_cron + pg_net (DESIGN "Scheduled work"): PGlite and a plain
// PostgreSQL have neither extension, so the dev stack calls the api function's one scheduler
// endpoint itself, as pg_cron does on Supabase (migration 20261129200000_one_scheduler.sql):
//   POST /api/internal/jobs   every minute, with `Authorization: Bearer <CRON_SECRET>`
// The job runner decides the rest: each recurring kind (the price sweep, maintenance, digests,
// scans, statements, ...) gets one job per period (supabase/functions/api/jobs/handlers.ts). A
// call still running when its next turn comes is not doubled up; the next turn is simply
// skipped. One JSON line per call goes to the log.
import { createWriteStream } from 'node:fs';

export interface TickerOptions {
  /** The api's base URL, ending in /api. */
  apiUrl: string;
  cronSecret: string;
  /** How often to call (default every minute, as pg_cron does). */
  everyMs?: number;
  /** Appends one JSON line per call here. */
  logFile?: string;
}

export interface Ticker {
  stop(): Promise<void>;
}

/** The one endpoint the scheduler calls, under the api URL. */
export const JOBS_PATH = '/internal/jobs';
export const JOBS_EVERY_MS = 60_000;

/** POSTs the jobs endpoint every `everyMs`, first one period after the start (a fresh stack has nothing due). */
export function startTicker(options: TickerOptions): Ticker {
  let inFlight: Promise<void> | null = null;
  const abort = new AbortController();
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;

  const write = (entry: Record<string, unknown>) => {
    log?.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  };

  const run = () => {
    if (inFlight) {
      write({ level: 'warn', msg: 'tick skipped: the previous call is still running' });
      return;
    }
    const started = Date.now();
    inFlight = fetch(`${options.apiUrl}${JOBS_PATH}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.cronSecret}`, 'Content-Type': 'application/json' },
      body: '{}',
      signal: abort.signal,
    })
      .then(async (res) => {
        const body = await res.text();
        write({
          level: res.ok ? 'info' : 'error',
          msg: 'tick',
          status: res.status,
          ms: Date.now() - started,
          body: body.slice(0, 500),
        });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        write({ level: 'error', msg: 'tick failed', error: String(error) });
      })
      .finally(() => {
        inFlight = null;
      });
  };

  const timer = setInterval(run, options.everyMs ?? JOBS_EVERY_MS);
  // the stack's own lifetime decides when the process exits, not the ticker
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      abort.abort();
      await inFlight;
      if (log) await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}
