// `npm test`: every check in order, each timed, ending with one summary line. A failing step does
// not stop the later ones, so one run shows everything that is wrong; the exit code is non-zero
// when any step failed.
import { spawnSync } from 'node:child_process';
import { repoRoot } from './stack.ts';

interface Step {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
}

const deno = 'node_modules/.bin/deno';
const steps: Step[] = [
  { name: 'typecheck (node)', command: 'npx', args: ['tsc', '-p', 'tsconfig.json'] },
  { name: 'typecheck (web)', command: 'npx', args: ['tsc', '-p', 'web/tsconfig.json'] },
  {
    name: 'typecheck (deno)',
    command: deno,
    args: [
      'check',
      '--config',
      'supabase/functions/deno.json',
      'supabase/functions/api/index.ts',
      'supabase/functions/_shared',
    ],
  },
  { name: 'format (prettier)', command: 'npx', args: ['prettier', '--check', '.', '--log-level', 'warn'] },
  { name: 'lint (eslint)', command: 'npx', args: ['eslint', '.', '--max-warnings', '0'] },
  { name: 'unit, database and api tests (vitest)', command: 'npx', args: ['vitest', 'run'] },
  {
    name: 'function tests (deno)',
    command: deno,
    args: [
      'test',
      '--config',
      'supabase/functions/deno.json',
      '--allow-all',
      'supabase/functions/api',
      'supabase/functions/_shared',
    ],
  },
  { name: 'web build', command: 'npx', args: ['vite', 'build', '--logLevel', 'warn'], cwd: 'web' },
  { name: 'browser tests (playwright)', command: 'npx', args: ['playwright', 'test'] },
];

const only = process.argv.slice(2);
const results: Array<{ name: string; ok: boolean; seconds: number }> = [];
const started = Date.now();
for (const step of steps) {
  if (only.length > 0 && !only.some((o) => step.name.includes(o))) continue;
  console.log(`\n=== ${step.name}`);
  const t0 = Date.now();
  const run = spawnSync(step.command, step.args, {
    cwd: step.cwd ? `${repoRoot}/${step.cwd}` : repoRoot,
    stdio: 'inherit',
    env: process.env,
  });
  const seconds = (Date.now() - t0) / 1000;
  results.push({ name: step.name, ok: run.status === 0, seconds });
  console.log(`=== ${step.name}: ${run.status === 0 ? 'passed' : 'FAILED'} (${seconds.toFixed(1)} s)`);
}

const failed = results.filter((r) => !r.ok);
const total = ((Date.now() - started) / 1000).toFixed(1);
console.log('\nSummary');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)`);
console.log(
  failed.length === 0
    ? `npm test: all ${results.length} steps passed in ${total} s`
    : `npm test: ${failed.length} of ${results.length} steps FAILED (${failed.map((f) => f.name).join(', ')}) in ${total} s`,
);
process.exit(failed.length === 0 ? 0 : 1);
