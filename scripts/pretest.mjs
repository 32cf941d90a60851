#!/usr/bin/env node
// What `npm test` does before vitest, one step after another, each timed so that a step that starts
// costing minutes is seen at once. Stops at the first step that fails. Built-ins only: the first
// step installs the dependencies.
//
// (Running the two installs beside typecheck, lint and build was tried: on 2 cores it took as long,
// 60.8 s against 57.8 s, because npm's installs are CPU-bound too.)
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const node = (script) => [process.execPath, [join(root, 'scripts', script)]];
const npmRun = (script) => ['npm', ['run', '--silent', script]];

const STEPS = [
  ['setup (npm ci when stale)', node('setup.mjs')],
  ['install-tools', node('install-tools.mjs')],
  ['typecheck', npmRun('typecheck')],
  ['lint', npmRun('lint')],
  ['build', npmRun('build')],
  ['install-clis', node('install-clis.mjs')],
];

const began = performance.now();
const results = [];
for (const [name, [command, args]] of STEPS) {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const status = run.error ? `${command}: ${run.error.message}` : (run.status ?? run.signal);
  results.push({ name, status, seconds: (performance.now() - started) / 1000 });
  if (status !== 0) break;
}

console.log('\npretest steps');
for (const { name, status, seconds } of results) {
  console.log(`  ${name.padEnd(28)} ${seconds.toFixed(1).padStart(6)} s${status === 0 ? '' : `  FAILED (${status})`}`);
}
console.log(`  ${'total'.padEnd(28)} ${((performance.now() - began) / 1000).toFixed(1).padStart(6)} s`);
const failed = results.find((result) => result.status !== 0);
if (failed) {
  console.error(`${failed.name} failed: the tests were not run.`);
  process.exitCode = 1;
}
