// Work that must not delay the answer: mail whose sending time would tell the caller something
// (forgot-password mails only existing accounts), or that the caller need not wait for. The task
// starts now and the handler answers without awaiting it; a failure is logged, never thrown. On
// Supabase the runtime may stop a worker once its response is sent, so the task is handed to
// `EdgeRuntime.waitUntil`, which keeps the worker alive until it settles; locally (plain Deno)
// the process simply keeps running.
import type { Logger } from '../context.ts';

interface EdgeRuntimeGlobal {
  EdgeRuntime?: { waitUntil?: (promise: Promise<unknown>) => void };
}

const pending = new Set<Promise<void>>();

export function runAfterResponse(log: Logger, what: string, task: () => Promise<unknown>): void {
  const run: Promise<void> = Promise.resolve()
    .then(task)
    .then(
      () => undefined,
      (error: unknown) => {
        log({ level: 'error', msg: `${what} failed`, error: error instanceof Error ? error.message : String(error) });
      },
    )
    .finally(() => pending.delete(run));
  pending.add(run);
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil?.(run);
}

/** Resolves once every task started so far (and any they start) has settled: for tests. */
export async function afterResponseSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
