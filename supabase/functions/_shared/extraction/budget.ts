// What one email may cost to read. Every step of the extractor is linear in its input
// (hostile.test.ts feeds each pattern that once was not an input at these caps), but linear in a
// megabyte is still a lot of work on a shared worker: on Supabase a request is stopped after 2 s of
// CPU time (https://supabase.com/docs/guides/functions/limits), and every other request the worker
// serves waits while one email is parsed. So each email gets a size cap, checked before any
// parsing, and a time budget, checked between the stages and inside the long loops; past either,
// extraction gives up with the reason, and the import records it (outcome 'not_read').
//
// The clock is CPU time, as Supabase's limit is (the process's, from `process.cpuUsage()` where the
// runtime has it: Node, Deno; else the wall clock), and counts only the extractor's own work: it
// stops while the extractor yields to other tasks (`pause`) and while it waits for the airport
// data to load (`wait`, a once-per-process cost that belongs to no one email). So neither a busy
// machine nor a busy worker makes an email give up.

/** Raw messages larger than this are not read (the inbound route refuses over 5 MB already). */
export const MAX_RAW_EMAIL_BYTES = 10 * 1024 * 1024;
/** Decoded HTML or text (each) longer than this is not read: confirmations are far smaller. */
export const MAX_BODY_CHARS = 1_000_000;
/** The extractor's own time per email: well inside Supabase's 2 s of CPU per request. */
export const EXTRACTION_BUDGET_MS = 500;

// Attachments (PDF e-tickets, Apple Wallet passes) are someone else's file formats, read by
// libraries whose worst cases we bound before handing them a byte: each cap below is checked
// before parsing, and an attachment past one is skipped with the reason (`skippedAttachments`),
// never read; the body's bookings still count. Together with the body's budget, one email costs at
// most 500 + 700 = 1,200 ms of CPU, under Supabase's 2 s, and holds at most the raw message, one
// attachment's expanded streams (20 MB) and the PDF reader's own structures for it.

/** An attachment larger than this (decoded) is not read. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Attachments of a kind the extractor reads (PDF, .pkpass) past this many per email are not read. */
export const MAX_ATTACHMENTS = 20;
/** Itinerary receipts run to a few pages; a PDF with more is not read. */
export const MAX_PDF_PAGES = 50;
/** What the compressed streams of one PDF, or the files of one zip, may expand to. */
export const MAX_EXPANDED_BYTES = 20 * 1024 * 1024;
/**
 * A PDF's page content (with its forms and object streams), decoded: pdf.js interprets it at a few
 * hundred KB a second, and between two text pieces cannot be stopped. An e-ticket has tens of KB.
 */
export const MAX_PDF_CONTENT_BYTES = 512 * 1024;
/** Files in one zip (.pkpass): a pass holds a dozen. */
export const MAX_ZIP_ENTRIES = 1_000;
/** The extractor's own time for all the attachments of one email, on top of EXTRACTION_BUDGET_MS. */
export const ATTACHMENTS_BUDGET_MS = 700;

/** Thrown inside the extractor when a budget is spent; extractFlightBookings answers it as `gaveUp`. */
export class ExtractionGaveUp extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ExtractionGaveUp';
  }
}

export const GAVE_UP = {
  rawTooLarge: `The email is larger than ${MAX_RAW_EMAIL_BYTES / 1024 / 1024} MB`,
  bodyTooLarge: (part: 'HTML' | 'text') =>
    `The email's ${part} is longer than ${MAX_BODY_CHARS.toLocaleString('en-US')} characters`,
  tooSlow: (ms: number, stage: string) => `Reading the email took longer than ${ms} ms (stopped at: ${stage})`,
} as const;

const megabytes = (bytes: number): string => `${bytes / 1024 / 1024} MB`;

/** Why an attachment was not read: said after its file name ('ticket.pdf is encrypted'). */
export const SKIPPED = {
  tooLarge: `is larger than ${megabytes(MAX_ATTACHMENT_BYTES)}`,
  tooMany: `is past the first ${MAX_ATTACHMENTS} attachments`,
  tooManyPages: `has more than ${MAX_PDF_PAGES} pages`,
  expandsTooFar: `expands past ${megabytes(MAX_EXPANDED_BYTES)}`,
  expandsPastDeclared: 'expands past the size it declares',
  tooMuchContent: `holds more than ${MAX_PDF_CONTENT_BYTES / 1024} KB of page content`,
  tooManyEntries: `holds more than ${MAX_ZIP_ENTRIES.toLocaleString('en-US')} files`,
  encrypted: 'is encrypted',
  unreadable: 'could not be read',
  brokenSignature: 'does not match its signed manifest',
  noBarcode: 'has no boarding-pass barcode',
  tooSlow: `was left when reading the attachments took longer than ${ATTACHMENTS_BUDGET_MS} ms`,
} as const;

/** Calls of check() per reading of the clock. */
const CHECK_EVERY = 32;
/** Work between two chances for other requests to run (one email's stages, never a whole email). */
const YIELD_EVERY_MS = 20;
interface ProcessWithCpuUsage {
  process?: { cpuUsage?: () => { user: number; system: number } };
}
const runtimeProcess = (globalThis as ProcessWithCpuUsage).process;
const cpuUsage = runtimeProcess?.cpuUsage?.bind(runtimeProcess);
/** Milliseconds of CPU time used by this process (the wall clock where the runtime cannot tell). */
export const cpuClock: () => number = cpuUsage
  ? () => {
      const used = cpuUsage();
      return (used.user + used.system) / 1000;
    }
  : () => performance.now();

const yieldToOtherTasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class ExtractionBudget {
  private spent = 0;
  private since: number;
  private lastYield: number;
  private checks = 0;
  /** False for a budget whose clock runs only inside run() (one part of an email's work). */
  private running = true;

  constructor(
    readonly limitMs: number = EXTRACTION_BUDGET_MS,
    private readonly now: () => number = cpuClock,
  ) {
    this.since = now();
    this.lastYield = this.since;
  }

  /** A budget for one part of the work: its clock runs only inside run(). */
  static forPart(limitMs: number, now: () => number = cpuClock): ExtractionBudget {
    const budget = new ExtractionBudget(limitMs, now);
    budget.running = false;
    return budget;
  }

  /** Runs `task` with this budget's clock running (a budget made by forPart). */
  async run<T>(task: () => Promise<T>): Promise<T> {
    this.since = this.now();
    this.lastYield = this.since;
    this.running = true;
    try {
      return await task();
    } finally {
      this.spent += this.now() - this.since;
      this.running = false;
    }
  }

  /** Milliseconds of the extractor's own work so far. */
  elapsed(): number {
    return this.spent + (this.running ? this.now() - this.since : 0);
  }

  /**
   * Throws ExtractionGaveUp once the budget is spent. Cheap enough to call per line: the clock
   * (a system call) is read on every CHECK_EVERY-th call only, a few milliseconds of work apart.
   */
  check(stage: string): void {
    if (++this.checks % CHECK_EVERY !== 0) return;
    this.checkNow(stage);
  }

  private checkNow(stage: string): void {
    if (this.elapsed() > this.limitMs) throw new ExtractionGaveUp(GAVE_UP.tooSlow(this.limitMs, stage));
  }

  /**
   * Checks, then, once YIELD_EVERY_MS of work has passed since the last time, lets the worker's
   * other requests run before the next stage (the clock stopped). A small email never yields: a
   * timer costs a millisecond or more, far more than reading it.
   */
  async pause(stage: string): Promise<void> {
    this.checkNow(stage);
    if (this.now() - this.lastYield < YIELD_EVERY_MS) return;
    await this.wait(yieldToOtherTasks);
    this.lastYield = this.now();
  }

  /** Runs `task` with the clock stopped (started inside, so its synchronous start is not counted). */
  async wait<T>(task: () => Promise<T>): Promise<T> {
    this.spent += this.now() - this.since;
    try {
      return await task();
    } finally {
      this.since = this.now();
    }
  }
}
