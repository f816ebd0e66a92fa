// Issue 21, "npm start a second time": a newcomer signs up (a confirmation email is caught), stops
// the stack and starts it again on the same state folder; or the stack's process is killed hard.
// The second start must come up with everything the first left (the account, the caught mail),
// and no process of the first run may outlive it. `npm start` runs PGlite with a state folder, so
// that is the path tested here. Every wait is for a condition; the test timeouts only bound them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForEmail } from './auth/test-support.ts';
import { commandLine, endProcess, readChildren } from './processes.ts';
import { anyFreePorts, portIsFree, repoRoot, startStack, type Stack } from './stack.ts';

const poll = { timeout: 120_000, interval: 100 };

/** The processes below `pid` right now, each with its command line (ps: Linux and macOS). */
function descendants(pid: number): Map<number, string> {
  const rows = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found = new Map<number, string>();
  trees.push(found);
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) {
      const command = ppid === parent ? commandLine(child) : null;
      if (command !== null && !found.has(child)) {
        found.set(child, command);
        queue.push(child);
      }
    }
  }
  return found;
}

/** Those of `processes` still running the same command (a reused pid is someone else's). */
function stillRunning(processes: Map<number, string>): number[] {
  return [...processes].filter(([pid, command]) => commandLine(pid) === command).map(([pid]) => pid);
}

interface StartedEntry {
  child: ChildProcess;
  url: string;
  mailUrl: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const spawned: ChildProcess[] = [];
/** The process trees the tests looked at, for the clean-up after a failed one. */
const trees: Array<Map<number, string>> = [];

/** `npm start`'s entry (dev/start.ts) in a process of its own, on a state folder and free ports. */
async function startEntry(command: string, args: string[], stateDir: string): Promise<StartedEntry> {
  // PGlite, as `npm start` runs without DATABASE_URL
  const { DATABASE_URL: _external, ...env } = process.env;
  const child = spawn(command, [...args, 'dev/start.ts', '--state-dir', stateDir, '--any-ports', '--skip-web-build'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ctrl-C stops everything')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => reject(new Error(`start.ts ended (${code ?? signal}):\n${output}`)));
  });
  const url = /FareBack is running: (\S+)/.exec(output)?.[1];
  const mailUrl = /mail catcher: (\S+)/.exec(output)?.[1];
  if (!url || !mailUrl) throw new Error(`no URLs in the banner:\n${output}`);
  return { child, url, mailUrl, output: () => output, exited };
}

async function health(url: string): Promise<unknown> {
  const res = await fetch(`${url}/api/health`);
  return { status: res.status, body: await res.json() };
}

const stateDirs: string[] = [];
async function newStateDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fareback-restart-'));
  stateDirs.push(dir);
  return dir;
}

let inProcess: Stack | null = null;

afterAll(async () => {
  await inProcess?.stop();
  // whatever a failed test left: the entries it started and the apis they recorded
  for (const child of spawned) {
    if (child.pid && child.exitCode === null && child.signalCode === null) await endProcess(child.pid);
  }
  for (const tree of trees) for (const pid of stillRunning(tree)) await endProcess(pid);
  for (const dir of stateDirs) {
    for (const recorded of Object.values(readChildren(dir))) {
      if (commandLine(recorded.pid)?.includes(recorded.marker)) await endProcess(recorded.pid);
    }
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

describe('npm start a second time', () => {
  it('starts again on the same folder after a stop: healthy, the account and its email there, nothing left over', async () => {
    const stateDir = await newStateDir();
    inProcess = await startStack({ stateDir, ports: anyFreePorts, seed: true, ticker: false });
    const account = { username: 'newcomer', email: 'newcomer@example.com', password: 'Second@2027start' };
    const registered = await fetch(`${inProcess.apiUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    expect(registered.status).toBe(201);
    const confirmation = await waitForEmail(inProcess.mailUrl, account.email, poll.timeout);
    const firstApi = readChildren(stateDir).api!;
    expect(commandLine(firstApi.pid)).toContain(firstApi.marker);

    await inProcess.stop();
    inProcess = null;
    expect(commandLine(firstApi.pid)).toBeNull();
    await expect.poll(() => portIsFree(firstApi.port), poll).toBe(true);
    expect(existsSync(path.join(stateDir, 'stack.pid'))).toBe(false);

    // before the fix: "map is not a function" in dev/mail.ts as the stored email was restored
    inProcess = await startStack({ stateDir, ports: anyFreePorts, seed: true, ticker: false });
    expect(await health(inProcess.url)).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } });
    const login = await fetch(`${inProcess.apiUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: account.username, password: account.password }),
    });
    expect(login.status).toBe(200);
    const restored = await waitForEmail(inProcess.mailUrl, account.email, poll.timeout);
    expect(restored.id).toBe(confirmation.id);
    expect(restored.subject).toBe(confirmation.subject);
    expect(readChildren(stateDir).api!.pid).not.toBe(firstApi.pid);

    await inProcess.stop();
    inProcess = null;
  }, 300_000);

  it('leaves nothing running when the stack process is killed hard, and starts again on the same folder', async () => {
    const stateDir = await newStateDir();
    const first = await startEntry(process.execPath, ['--import', 'tsx'], stateDir);
    // the banner names the mail catcher, and it answers
    expect(first.output()).toContain(`mail catcher: ${first.mailUrl}`);
    expect((await fetch(`${first.mailUrl}/email`)).status).toBe(200);
    const api = readChildren(stateDir).api!;
    const tree = descendants(first.child.pid!);
    expect([...tree.keys()]).toContain(api.pid);

    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // before the fix the api kept running, and its port, for good. The port is waited for: it came
    // from the kernel's ephemeral range, where another test's outgoing connection may hold it as
    // its local port for a moment after the api is gone (CI saw it busy once)
    await expect.poll(() => stillRunning(tree), poll).toEqual([]);
    await expect.poll(() => portIsFree(api.port), poll).toBe(true);

    const second = await startEntry(process.execPath, ['--import', 'tsx'], stateDir);
    expect(await health(second.url)).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } });
    const secondTree = descendants(second.child.pid!);
    expect(secondTree.size).toBeGreaterThan(0);

    // Ctrl-C's way out (SIGTERM here): the stack's own stop runs to its end (its last step removes
    // the lock), which maildev's exit-on-signal handler used to cut short
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(path.join(stateDir, 'stack.pid'))).toBe(false);
    expect(existsSync(path.join(stateDir, 'children.json'))).toBe(false);
    expect(stillRunning(secondTree)).toEqual([]);
  }, 300_000);

  it('leaves nothing running when a launcher that runs the stack in a child process (tsx) is killed hard', async () => {
    const stateDir = await newStateDir();
    const launched = await startEntry(path.join(repoRoot, 'node_modules/.bin/tsx'), [], stateDir);
    const tree = descendants(launched.child.pid!);
    // tsx's own process, then node running dev/start.ts, then the api
    expect([...tree.values()].some((command) => command.includes('dev/start.ts'))).toBe(true);
    expect([...tree.keys()]).toContain(readChildren(stateDir).api!.pid);

    launched.child.kill('SIGKILL');
    await launched.exited;
    await expect.poll(() => stillRunning(tree), poll).toEqual([]);
    // and it stopped properly: the lock is released
    expect(existsSync(path.join(stateDir, 'stack.pid'))).toBe(false);
  }, 300_000);
});
