// The local stand-in for pg_cron + pg_net (DESIGN "Scheduled work"): PGlite and a plain
// PostgreSQL have neither extension, so the dev stack calls the api function's scheduler
// endpoints itself, on the same schedule the migration gives pg_cron on Supabase:
//   POST /api/internal/price-sweep   every PRICE_SWEEP_EVERY_MINUTES (default 15)
//   POST /api/internal/maintenance   hourly
//   POST /api/internal/jobs          every minute (queued background work, jobs/handlers.ts)
// with `Authorization: Bearer <CRON_SECRET>`. A call still running when its next turn comes is
// not doubled up; the next turn is simply skipped. One JSON line per call goes to the log.
import { createWriteStream } from 'node:fs';

export interface TickerTask {
  name: string;
  /** Path under the api URL, e.g. '/internal/price-sweep'. */
  path: string;
  everyMs: number;
}

export interface TickerOptions {
  /** The api's base URL, ending in /api. */
  apiUrl: string;
  cronSecret: string;
  tasks: TickerTask[];
  /** Appends one JSON line per call here. */
  logFile?: string;
}

export interface Ticker {
  stop(): Promise<void>;
}

export const DEFAULT_PRICE_SWEEP_EVERY_MINUTES = 15;
export const MAINTENANCE_EVERY_MINUTES = 60;
export const JOBS_EVERY_MINUTES = 1;

/** The price sweep's period from PRICE_SWEEP_EVERY_MINUTES (fractions allowed, for trying it out). */
export function priceSweepEveryMinutes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PRICE_SWEEP_EVERY_MINUTES?.trim();
  if (!raw) return DEFAULT_PRICE_SWEEP_EVERY_MINUTES;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new Error(`PRICE_SWEEP_EVERY_MINUTES must be a positive number of minutes, got '${raw}'`);
  }
  return minutes;
}

export function schedulerTasks(env: NodeJS.ProcessEnv = process.env): TickerTask[] {
  return [
    { name: 'price-sweep', path: '/internal/price-sweep', everyMs: priceSweepEveryMinutes(env) * 60_000 },
    { name: 'maintenance', path: '/internal/maintenance', everyMs: MAINTENANCE_EVERY_MINUTES * 60_000 },
    { name: 'jobs', path: '/internal/jobs', everyMs: JOBS_EVERY_MINUTES * 60_000 },
  ];
}

/** Calls each task every `everyMs`, first one period after the start (a fresh stack has nothing due). */
export function startTicker(options: TickerOptions): Ticker {
  const inFlight = new Map<string, Promise<void>>();
  const abort = new AbortController();
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;

  const write = (entry: Record<string, unknown>) => {
    log?.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  };

  const run = (task: TickerTask) => {
    if (inFlight.has(task.name)) {
      write({ level: 'warn', msg: 'tick skipped: the previous call is still running', task: task.name });
      return;
    }
    const started = Date.now();
    const call = fetch(`${options.apiUrl}${task.path}`, {
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
          task: task.name,
          status: res.status,
          ms: Date.now() - started,
          body: body.slice(0, 500),
        });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        write({ level: 'error', msg: 'tick failed', task: task.name, error: String(error) });
      })
      .finally(() => inFlight.delete(task.name));
    inFlight.set(task.name, call);
  };

  const timers = options.tasks.map((task) => setInterval(() => run(task), task.everyMs));
  // the stack's own lifetime decides when the process exits, not the ticker
  for (const timer of timers) timer.unref();

  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      abort.abort();
      await Promise.allSettled([...inFlight.values()]);
      if (log) await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}
