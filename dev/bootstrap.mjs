// Runs before `npm start` and `npm test`: installs dependencies when node_modules is missing or
// older than package-lock.json, so a fresh clone needs nothing but Node.js and npm. It is `npm install`
// rather than `npm ci`: the registry reachable here lacks other platforms' optional binaries (e.g.
// @deno/darwin-arm64), which the lockfile cannot list, and `npm ci` refuses a lockfile without them.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules/.package-lock.json');

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing dependencies...');
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
