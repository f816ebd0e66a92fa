// The local stack's bookkeeping of its own processes in its state directory: the pid lock of the
// stack itself (stack.pid) and the children it started (children.json), so that a start after a
// stack that did not stop cleanly (a crash, SIGKILL) finds and ends whatever that run left behind.
// A pid is only acted on after the process's command line shows it is what was recorded: pids are
// reused, and the stack must never kill or defer to an unrelated process.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The command line of a running process (arguments joined by spaces), or null when there is none. */
export function commandLine(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (existsSync('/proc/self/cmdline')) {
    try {
      // a zombie (exited, not yet reaped) has an empty command line: it runs nothing any more
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      return args.length > 0 ? args.join(' ') : null;
    } catch {
      return null;
    }
  }
  // macOS and other systems without /proc
  const ps = spawnSync('ps', ['-ww', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
  const line = ps.status === 0 ? ps.stdout.trim() : '';
  return line === '' ? null : line;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends a process: SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it is gone. */
export async function endProcess(pid: number, graceMs = 3000): Promise<void> {
  const gone = () => commandLine(pid) === null;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const killAt = Date.now() + graceMs;
  while (!gone() && Date.now() < killAt) await sleep(50);
  if (gone()) return;
  signal('SIGKILL');
  const giveUpAt = Date.now() + 10_000;
  while (!gone() && Date.now() < giveUpAt) await sleep(50);
  if (!gone()) throw new Error(`process ${pid} did not exit after SIGKILL`);
}

/** A child process the stack started: what to look for in its command line, and its port. */
export interface RecordedChild {
  pid: number;
  /** A string its command line contains (the absolute path of the script it runs). */
  marker: string;
  port: number;
}

const childrenFile = (stateDir: string) => path.join(stateDir, 'children.json');

export function readChildren(stateDir: string): Record<string, RecordedChild> {
  try {
    return JSON.parse(readFileSync(childrenFile(stateDir), 'utf8')) as Record<string, RecordedChild>;
  } catch {
    return {};
  }
}

/** Records a child the stack started (the stack removes it again when it stops the child). */
export function recordChild(stateDir: string, name: string, child: RecordedChild): () => void {
  writeFileSync(childrenFile(stateDir), JSON.stringify({ ...readChildren(stateDir), [name]: child }, null, 2));
  return () => {
    const { [name]: _removed, ...rest } = readChildren(stateDir);
    if (Object.keys(rest).length === 0) rmSync(childrenFile(stateDir), { force: true });
    else writeFileSync(childrenFile(stateDir), JSON.stringify(rest, null, 2));
  };
}

/**
 * Ends the children a previous run from this state directory recorded and that still run (that run
 * ended without stopping them), each only if its command line still shows what was recorded.
 * Returns the names of those it ended. Call it holding the state directory's lock.
 */
export async function reapChildren(stateDir: string): Promise<string[]> {
  const reaped: string[] = [];
  for (const [name, child] of Object.entries(readChildren(stateDir))) {
    if (commandLine(child.pid)?.includes(child.marker)) {
      await endProcess(child.pid);
      reaped.push(`${name} (process ${child.pid})`);
    }
  }
  rmSync(childrenFile(stateDir), { force: true });
  return reaped;
}

/** Thrown when the stack cannot start for a reason the person starting it can fix. */
export class StackStartError extends Error {}

/**
 * One stack per state directory: two PGlite instances on the same data directory would corrupt
 * it. The lock is a pid file holding the owner's pid and command line; a stale one (its process
 * gone, or the pid now another program's) is taken over.
 */
const lockedInThisProcess = new Set<string>();

export function lockStateDir(stateDir: string): () => void {
  const lockFile = path.join(stateDir, 'stack.pid');
  if (lockedInThisProcess.has(lockFile)) {
    throw new StackStartError(`FareBack is already running from ${stateDir} in this process.`);
  }
  if (existsSync(lockFile)) {
    // first line the pid; second line (absent in older lock files) the owner's command line
    const [pidLine = '', recordedCommand] = readFileSync(lockFile, 'utf8').split('\n');
    const pid = Number(pidLine);
    const running = pid !== process.pid ? commandLine(pid) : null;
    if (running !== null && (recordedCommand === undefined || running === recordedCommand)) {
      throw new StackStartError(
        `FareBack is already running from ${stateDir} (process ${pid}). ` +
          `Stop it with Ctrl-C where it runs (or kill ${pid}) first.`,
      );
    }
  }
  writeFileSync(lockFile, `${process.pid}\n${commandLine(process.pid) ?? ''}`);
  lockedInThisProcess.add(lockFile);
  return () => {
    lockedInThisProcess.delete(lockFile);
    rmSync(lockFile, { force: true });
  };
}
