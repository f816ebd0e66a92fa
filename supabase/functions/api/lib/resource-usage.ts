// CPU time and memory of a piece of work (a request, a job), against what Supabase's hosted Edge
// Functions allow a request: 2 s of CPU time (awaiting I/O does not count) and 256 MB of memory
// (issue 27 item 5). The local stack runs the function without those limits, so the request log
// and the job runner's log carry these figures, and the benchmarks print them against the budget.
//
// CPU time is the process's (user + system) over the work's span: exact for work that runs alone,
// and including whatever else ran at the same time otherwise (`concurrent` says how many other
// measured spans were open meanwhile, so a reader can tell). Memory is the process's peak
// resident set and the isolate's peak heap (used + external) seen while the work ran, sampled
// every SAMPLE_MS while any span is open and at each span's start and end.
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';

/** Hosted Edge Functions: CPU time per request. */
export const EDGE_CPU_BUDGET_MS = 2_000;
/** Hosted Edge Functions: memory per function instance. */
export const EDGE_MEMORY_BUDGET_MB = 256;
/** Batches are sized to stay under this share of either budget. */
export const EDGE_BUDGET_SHARE = 0.5;

const SAMPLE_MS = 20;

/**
 * The runtime's figures, or zeros where it has none: a runtime without process.cpuUsage or
 * process.memoryUsage (an edge runtime's partial node:process) must still answer every request.
 */
function cpuMicros(): number {
  try {
    const used = process.cpuUsage();
    return used.user + used.system;
  } catch {
    return 0;
  }
}
function memoryNow(): { rss: number; heap: number } {
  try {
    const memory = process.memoryUsage();
    return { rss: memory.rss, heap: memory.heapUsed + memory.external };
  } catch {
    return { rss: 0, heap: 0 };
  }
}
const MB = 1024 * 1024;

export interface ResourceUsage {
  /** Process CPU time (user + system) over the span, ms. */
  cpuMs: number;
  /** Peak resident set size seen during the span, MB. */
  rssMb: number;
  /** Peak V8 heap (used + external) seen during the span, MB. */
  heapMb: number;
  /** How far the heap grew above where it stood at the start, MB: this work's own allocation. */
  heapGrowthMb: number;
  /** How many other measured spans were open at some point during this one. */
  concurrent: number;
}

interface Span {
  startHeap: number;
  peakRss: number;
  peakHeap: number;
  concurrent: number;
}

const open = new Set<Span>();
let sampler: ReturnType<typeof setInterval> | undefined;

function sample(): void {
  const { rss, heap } = memoryNow();
  for (const span of open) {
    if (rss > span.peakRss) span.peakRss = rss;
    if (heap > span.peakHeap) span.peakHeap = heap;
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Starts measuring; the function returned stops and answers the span's figures. */
export function startUsage(): () => ResourceUsage {
  const cpu = cpuMicros();
  const span: Span = { startHeap: memoryNow().heap, peakRss: 0, peakHeap: 0, concurrent: open.size };
  for (const other of open) other.concurrent += 1;
  open.add(span);
  sample();
  if (!sampler) {
    // never the reason a process (a test, a benchmark) stays alive
    sampler = setInterval(sample, SAMPLE_MS).unref();
  }
  return () => {
    sample();
    open.delete(span);
    if (open.size === 0 && sampler) {
      clearInterval(sampler);
      sampler = undefined;
    }
    return {
      cpuMs: round1((cpuMicros() - cpu) / 1000),
      rssMb: round1(span.peakRss / MB),
      heapMb: round1(span.peakHeap / MB),
      heapGrowthMb: round1(Math.max(0, span.peakHeap - span.startHeap) / MB),
      concurrent: span.concurrent,
    };
  };
}

/** Process CPU time (user + system) so far, ms: for budgets inside a span. */
export function cpuNowMs(): number {
  return cpuMicros() / 1000;
}
