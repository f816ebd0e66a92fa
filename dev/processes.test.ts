import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandLine, endProcess, lockStateDir, reapChildren, readChildren, recordChild } from './processes.ts';

const started: ChildProcess[] = [];
let stateDir = '';

/** A process that runs until it is ended, its command line naming `marker`. */
function idle(marker: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)', marker], { stdio: 'ignore' });
  started.push(child);
  return child;
}

async function untilRunning(child: ChildProcess, marker: string): Promise<void> {
  await expect.poll(() => commandLine(child.pid!) ?? '', { timeout: 30_000, interval: 20 }).toContain(marker);
}

afterEach(async () => {
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) await endProcess(child.pid!);
  }
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe("the stack's record of its children", () => {
  it('ends a recorded child a previous run left running, and only one whose command line still matches', async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-processes-'));
    const leftover = idle('/repo/supabase/functions/api/index.ts');
    const stranger = idle('something-else-entirely');
    await untilRunning(leftover, 'api/index.ts');
    await untilRunning(stranger, 'something-else');
    recordChild(stateDir, 'api', { pid: leftover.pid!, marker: '/repo/supabase/functions/api/index.ts', port: 1 });
    // the pid now belongs to another program: recorded, but it must be left alone
    recordChild(stateDir, 'old', { pid: stranger.pid!, marker: '/repo/dev/gone.ts', port: 2 });
    const leftoverExit = new Promise((resolve) => leftover.once('exit', resolve));

    expect(await reapChildren(stateDir)).toEqual([`api (process ${leftover.pid})`]);
    await leftoverExit;
    expect(commandLine(stranger.pid!)).toContain('something-else-entirely');
    expect(readChildren(stateDir)).toEqual({});
  });

  it('forgets a child the stack stopped itself', async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-processes-'));
    const forgetA = recordChild(stateDir, 'a', { pid: 11, marker: 'a.ts', port: 1 });
    recordChild(stateDir, 'b', { pid: 12, marker: 'b.ts', port: 2 });
    forgetA();
    expect(readChildren(stateDir)).toEqual({ b: { pid: 12, marker: 'b.ts', port: 2 } });
  });
});

describe('the state directory lock', () => {
  it('refuses a live owner, takes over from one whose pid now runs something else, and releases', async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-processes-'));
    const lockFile = path.join(stateDir, 'stack.pid');
    const owner = idle('dev/start.ts');
    await untilRunning(owner, 'dev/start.ts');

    writeFileSync(lockFile, `${owner.pid}\n${commandLine(owner.pid!)}`);
    expect(() => lockStateDir(stateDir)).toThrow(`already running from ${stateDir} (process ${owner.pid})`);
    // an older lock file: the pid alone
    writeFileSync(lockFile, String(owner.pid));
    expect(() => lockStateDir(stateDir)).toThrow(/already running/);

    // the recorded owner is gone and its pid was given to another program
    writeFileSync(lockFile, `${owner.pid}\nnode --import tsx dev/start.ts --state-dir elsewhere`);
    const unlock = lockStateDir(stateDir);
    expect(readFileSync(lockFile, 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(() => lockStateDir(stateDir)).toThrow(/in this process/);
    unlock();
    expect(existsSync(lockFile)).toBe(false);
  });
});
