// `npm start`: builds the web app when its sources changed, starts the whole local stack with its
// state in .local/ (so data survives a restart), and prints the one URL to open.
//
// Options (`npm start -- --state-dir /tmp/x --any-ports`): --state-dir <dir> keeps the state
// elsewhere than .local/ (a second copy beside the first, the restart tests); --any-ports puts every
// part on a free port instead of Supabase's defaults; --skip-web-build serves whatever web/dist holds;
// --reset rebuilds the database from the migrations and the seed first, as `supabase db reset` does
// (the stack does so by itself when a migration file it was built from has changed, except on a
// DATABASE_URL database, which it drops only when asked).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { anyFreePorts, demoAccounts, repoRoot, StackStartError, startStack } from './stack.ts';

const { values: flags } = parseArgs({
  options: {
    'state-dir': { type: 'string' },
    'any-ports': { type: 'boolean', default: false },
    'skip-web-build': { type: 'boolean', default: false },
    reset: { type: 'boolean', default: false },
  },
});
const stateDir = path.resolve(flags['state-dir'] ?? path.join(repoRoot, '.local'));

const started = Date.now();

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function buildWebIfStale(): void {
  const built = path.join(repoRoot, 'web/dist/index.html');
  const sources = [
    'web/src',
    'web/index.html',
    'web/vite.config.ts',
    'web/scripts',
    'web/public',
    'supabase/functions/_shared',
  ].map((p) => newestMtime(path.join(repoRoot, p)));
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources)) return;
  console.log('Building the web app...');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: path.join(repoRoot, 'web'),
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The web app failed to build.');
    process.exit(1);
  }
}

if (!flags['skip-web-build']) buildWebIfStale();
console.log('Starting the local stack...');
const stack = await startStack({
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  stateDir,
  ...(flags['any-ports'] ? { ports: anyFreePorts } : {}),
  seed: true,
  reset: flags.reset,
  demoAccounts: true,
}).catch((error: Error) => {
  if (error instanceof StackStartError) {
    console.error(`\n  ${error.message}\n`);
    process.exit(1);
  }
  throw error;
});

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log('');
console.log(`  FareBack is running: ${stack.url}`);
console.log('');
for (const account of demoAccounts) {
  console.log(`  demo ${account.isAdmin ? 'admin    ' : 'traveller'}  ${account.username} / ${account.password}`);
}
const relativeStateDir = path.relative(process.cwd(), stateDir);
const shownStateDir = relativeStateDir && !relativeStateDir.startsWith('..') ? relativeStateDir : stateDir;
console.log(`  mail catcher: ${stack.mailUrl} (every email the stack sends lands there)`);
console.log(`  logs in ${path.join(shownStateDir, 'logs')} (ready in ${seconds} s)`);
console.log(`  Ctrl-C stops everything; data stays in ${shownStateDir}${path.sep}.`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
// Started through a launcher that runs this script in a child process of its own (`tsx
// dev/start.ts`: tsx's CLI does), the stack must not outlive that launcher either: SIGKILL of the
// launcher reaches nothing here, and the orphan would keep every port and the state directory's
// lock. An orphan is handed to another parent, so a changed ppid means the launcher is gone.
// (`npm start` runs this file in node itself, `node --import tsx`; the api, the one child process,
// ends with this process on its own: dev/exit-with-parent.ts.)
const launcher = process.ppid;
setInterval(() => {
  if (process.ppid !== launcher) void shutdown();
}, 1000).unref();
