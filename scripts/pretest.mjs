#!/usr/bin/env node
// What `npm test` does before vitest, each step timed so that a step that starts costing minutes is
// seen at once: the locked dependencies (setup.mjs), then three lanes at the same time, because the
// two installs wait on the network and the disk while the checks use the CPU:
//   - the Python/Go tools (install-tools.mjs)
//   - the pinned agent CLIs (install-clis.mjs)
//   - typecheck, lint, build, one after the other
// Each lane's output is printed whole when it ends, so lanes never interleave. Built-ins only.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const node = (script) => [process.execPath, [join(root, 'scripts', script)]];
const npmRun = (script) => ['npm', ['run', '--silent', script]];

const began = performance.now();
const setup = timed('setup (npm ci when stale)', () => spawnSync(...node('setup.mjs'), { cwd: root, stdio: 'inherit' }).status);
if (setup.status !== 0) finish([setup]);

const lanes = await Promise.all([
  runLane([['install-tools', node('install-tools.mjs')]]),
  runLane([['install-clis', node('install-clis.mjs')]]),
  runLane([
    ['typecheck', npmRun('typecheck')],
    ['lint', npmRun('lint')],
    ['build', npmRun('build')],
  ]),
]);
finish([setup, ...lanes.flat()]);

function timed(name, run) {
  const started = performance.now();
  const status = run();
  return { name, status, seconds: (performance.now() - started) / 1000 };
}

/** Runs the steps in order, stopping at the first that fails; prints their output when done. */
async function runLane(steps) {
  const results = [];
  let output = '';
  for (const [name, [command, args]] of steps) {
    const started = performance.now();
    const status = await new Promise((resolve) => {
      const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => {
        output += `${command}: ${error.message}\n`;
        resolve(1);
      });
      child.on('close', (code, signal) => resolve(code ?? signal));
    });
    results.push({ name, status, seconds: (performance.now() - started) / 1000 });
    if (status !== 0) break;
  }
  process.stdout.write(output);
  return results;
}

function finish(results) {
  console.log('\npretest steps (the three lanes after setup ran at the same time)');
  for (const { name, status, seconds } of results) {
    console.log(`  ${name.padEnd(28)} ${seconds.toFixed(1).padStart(6)} s${status === 0 ? '' : `  FAILED (${status})`}`);
  }
  console.log(`  ${'total'.padEnd(28)} ${((performance.now() - began) / 1000).toFixed(1).padStart(6)} s`);
  const failed = results.find((result) => result.status !== 0);
  if (failed) {
    console.error(`${failed.name} failed: the tests were not run.`);
    process.exit(1);
  }
}
