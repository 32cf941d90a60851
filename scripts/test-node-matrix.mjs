#!/usr/bin/env node
// `npm run test:node-matrix`: the unit, integration and e2e tiers under every Node major that
// `engines` supports (20, 22, 24), each run by that Node with it first on PATH (the tests spawn
// `node` and the built bin). The running Node serves its own major; the others are the newest of
// their major from the npm registry's `node` package, installed once into .cache/node/<version>/.
// Prints a table and exits 1 when any tier failed under any Node. Never runs `npm test`: it only
// builds dist/ when dist/ is missing.
//
//   node scripts/test-node-matrix.mjs            20, 22 and 24
//   node scripts/test-node-matrix.mjs 22 24      the majors named
//   node scripts/test-node-matrix.mjs --current  the running Node only (CI jobs that set up their Node)
//   node scripts/test-node-matrix.mjs --others   the majors other than the running one (after npm test ran them all under it)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPinned, versionOf } from './pinned-install.mjs';

const SUPPORTED_MAJORS = [20, 22, 24];
const TIERS = ['unit', 'integration', 'e2e'];

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const currentMajor = Number(process.versions.node.split('.')[0]);
const args = process.argv.slice(2);
const named = args.filter((arg) => /^\d+$/.test(arg)).map(Number);
const majors = args.includes('--current')
  ? [currentMajor]
  : args.includes('--others')
    ? SUPPORTED_MAJORS.filter((major) => major !== currentMajor)
    : named.length > 0
      ? named
      : SUPPORTED_MAJORS;

const began = Date.now();
let published; // npm view node versions, asked once
if (buildIfMissing()) {
  const rows = majors.map((major) => {
    const node = nodeFor(major);
    if (typeof node !== 'string') return { version: `${major}.x`, result: node.problem };
    console.log(`\n== Node ${versionOf([node], () => ({}))} (${node}) ==`);
    return runTiers(node);
  });
  printTable(rows);
  process.exitCode = rows.every((row) => row.result === 'passed') ? 0 : 1;
} else {
  process.exitCode = 1;
}

/** The e2e tests run the built bin: build it when there is none (the build swaps dist/ in whole). */
function buildIfMissing() {
  if (existsSync(join(root, 'dist', 'cli.js')) && existsSync(join(root, 'dist', 'hook.cjs'))) return true;
  console.log('dist/ is missing: building it (node scripts/build.mjs)');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) console.error(`the build failed (exit ${build.status ?? build.signal}); no tier was run.`);
  return build.status === 0;
}

/** The path of a `node` binary of that major, or why there is none. */
function nodeFor(major) {
  if (major === currentMajor) return process.execPath;
  const version = newestPublished(major) ?? newestCached(major);
  if (!version) return { problem: `no Node ${major} published on the npm registry, and none in .cache/node/` };
  const binRelative = join('node_modules', 'node', 'bin', 'node');
  const bin = installPinned({
    script: 'test-node-matrix',
    cacheName: 'node',
    version,
    spec: `node@${version}`,
    // The `node` package fetches its per-platform binary package in a preinstall script.
    npmFlags: ['--ignore-scripts=false'],
    binRelative,
    isInstalled: (dir) => versionOf([join(dir, binRelative)], () => ({})) === `v${version}`,
  });
  return bin ?? { problem: `could not install node@${version} from the npm registry` };
}

/** The newest version of that major on the registry; undefined when the registry can't be asked. */
function newestPublished(major) {
  if (published === undefined) {
    const view = spawnSync('npm', ['view', 'node', 'versions', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    published = view.status === 0 ? JSON.parse(view.stdout) : [];
    if (view.status !== 0) console.error(`npm view node versions failed; using what .cache/node/ holds.\n${view.stderr}`);
  }
  return newestOfMajor(published, major);
}

function newestCached(major) {
  const dir = join(root, '.cache', 'node');
  const complete = existsSync(dir) ? readdirSync(dir).filter((name) => /^\d+\.\d+\.\d+$/.test(name)) : [];
  return newestOfMajor(complete, major);
}

function newestOfMajor(versions, major) {
  const parts = (version) => version.split('.').map(Number);
  const ofMajor = versions.filter((version) => /^\d+\.\d+\.\d+$/.test(version) && parts(version)[0] === major);
  return ofMajor.sort((a, b) => parts(a)[1] - parts(b)[1] || parts(a)[2] - parts(b)[2]).at(-1);
}

function runTiers(node) {
  const reportDir = mkdtempSync(join(tmpdir(), 'node-matrix-'));
  const report = join(reportDir, 'vitest.json');
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const projects = TIERS.flatMap((tier) => ['--project', tier]);
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const started = Date.now();
  const run = spawnSync(node, [vitest, 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const seconds = (Date.now() - started) / 1000;
  try {
    const version = versionOf([node], () => ({})) ?? '?';
    if (!existsSync(report)) return { version, seconds, result: `did not run (exit ${run.status ?? run.signal})` };
    const counts = JSON.parse(readFileSync(report, 'utf8'));
    const files = counts.testResults.length;
    const failedFiles = counts.testResults.filter((file) => file.status === 'failed').length;
    const result = run.status === 0 && counts.success ? 'passed' : `FAILED (exit ${run.status ?? run.signal})`;
    return { version, seconds, files, failedFiles, passed: counts.numPassedTests, failed: counts.numFailedTests, skipped: counts.numPendingTests + counts.numTodoTests, result };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

function printTable(results) {
  const header = ['node', 'test files', 'passed', 'failed', 'skipped', 'duration', 'result'];
  const lines = results.map((row) => [
    row.version,
    row.files === undefined ? '-' : row.failedFiles ? `${row.files} (${row.failedFiles} failed)` : String(row.files),
    String(row.passed ?? '-'),
    String(row.failed ?? '-'),
    String(row.skipped ?? '-'),
    row.seconds === undefined ? '-' : `${row.seconds.toFixed(0)} s`,
    row.result,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (line) => line.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  console.log(`\nthe ${TIERS.join(', ')} tiers under each Node`);
  for (const line of [header, ...lines]) console.log(format(line));
  console.log(`total ${((Date.now() - began) / 1000).toFixed(0)} s, installs and build included`);
}
