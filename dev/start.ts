// `npm start`: builds the web app when its sources changed, starts the whole local stack with its
// state in .local/ (so data survives a restart), and prints the one URL to open.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { demoAccounts, repoRoot, StackStartError, startStack } from './stack.ts';

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

buildWebIfStale();
console.log('Starting the local stack...');
const stack = await startStack({
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  stateDir: path.join(repoRoot, '.local'),
  seed: true,
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
console.log(`  emails sent by the stack land in the mail catcher; logs in .local/logs (ready in ${seconds} s)`);
console.log('  Ctrl-C stops everything; data stays in .local/.');

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
