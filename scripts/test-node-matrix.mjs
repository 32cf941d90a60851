#!/usr/bin/env node
// `npm run test:node-matrix`: the tests whose outcome depends on Node's version, under every Node
// major that `engines` supports (20, 22, 24), each run by that Node with it first on PATH (the tests
// spawn `node` and the built bin). The running Node serves its own major; the others are the newest
// of their major from the npm registry's `node` package, installed once into .cache/node/<version>/.
// Prints a table and exits 1 when any test failed under any Node. Never runs `npm test`: it only
// builds dist/ when dist/ is missing.
//
// Which tests: NODE_DEPENDENT below, each with why (docs/testing.md, "The Node matrix"); with
// --all-files the whole unit, integration and e2e tiers, as the GitHub jobs (one per Node) run them.
//
//   node scripts/test-node-matrix.mjs            20, 22 and 24
//   node scripts/test-node-matrix.mjs 22 24      the majors named
//   node scripts/test-node-matrix.mjs --current  the running Node only (CI jobs that set up their Node)
//   node scripts/test-node-matrix.mjs --others   the majors other than the running one (after npm test ran them all under it)
//   … --all-files                                every file of the three tiers, not only NODE_DEPENDENT
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTable } from './format-table.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const SUPPORTED_MAJORS = [20, 22, 24];
const TIERS = ['unit', 'integration', 'e2e'];

/**
 * The tests whose outcome can change with Node's major, and why; file by file below tests/unit/.
 * The other integration and e2e files test what does not run on the user's Node (a real tool's own
 * behaviour: pytest, mypy, ruff, go, cargo, gofmt, tsc's module resolution; npm packing; what init
 * writes), or drive the same code paths of the built bin as the files here with other data. They run
 * under the Node of `npm test`, and under every Node in the GitHub jobs (--all-files).
 */
const NODE_DEPENDENT = [
  ['tests/unit/', "the pure core on the user's Node (regular expressions, Intl, Buffer, URL, fs and path), and every filter against captured outputs; cheap"],
  ['tests/integration/run-gate.test.ts', "gates spawned and killed by Node's child_process: process groups, timeouts, output held open by a detached child, bounded capture"],
  ['tests/integration/spawn-group.test.ts', 'a process group of its own, stdin closed, stdout and stderr merged in order, why a program could not start'],
  ['tests/integration/git-time-limit.test.ts', "git killed at the hook's time limit: timers and child_process"],
  ['tests/integration/test-runner-slots.test.ts', "test runners started by timers, and the cores from os.availableParallelism, which differs by Node in a container"],
  ['tests/integration/mcp.test.ts', 'the MCP server over stdio'],
  ['tests/integration/change-detection.test.ts', 'git read as bytes: Buffer and its decoding'],
  ['tests/integration/tamper.test.ts', 'git diffs read as bytes, paths with spaces, quotes and non-ASCII'],
  ['tests/integration/find-ignored.test.ts', "git's -z output read as bytes"],
  ['tests/integration/config-tree.test.ts', "configs read from the disk, a manifest that does not parse (JSON.parse's message comes from Node's V8)"],
  ['tests/integration/detect-stacks.test.ts', "an invalid package.json named with its line and column, from JSON.parse's message"],
  ['tests/integration/fingerprint-file.test.ts', "a file's ctime and mtime through Node's fs"],
  ['tests/integration/lend-dependencies.test.ts', "symlinks made and read through Node's fs"],
  ['tests/integration/vitest-coverage-record.test.ts', "what NODE_V8_COVERAGE writes for each vitest process (V8's coverage format and function names) and the exit hook that takes it"],
  ['tests/integration/turbo-nx.test.ts', "a failing node:test task read through turbo and Nx: its output is TAP up to Node 22 and the spec reporter from 23; Nx itself runs on the user's Node"],
  ['tests/e2e/stop.test.ts', 'the stop contract through the built bin: stdin read to EOF, exit codes, stderr, state files'],
  ['tests/e2e/adversarial-input.test.ts', "payloads that are huge, torn or not JSON on stdin; Node's stream handling"],
  ['tests/e2e/adversarial-runtime.test.ts', "signals, concurrent stops, killed process trees: Node's process and child_process"],
  ['tests/e2e/status-running.test.ts', 'a running stop seen from another process: timers, pid liveness'],
  ['tests/e2e/fast-tier-js.test.ts', "node --test's reporter and its output format, which Node 22 and 23 changed"],
  ['tests/e2e/fast-tier-node.test.ts', 'tsc and eslint started by the bin under this Node'],
  ['tests/e2e/tamper-expectations-node-assert.test.ts', "node:test's reporter and node:assert's failure text (node:test and mocha), which come from Node (the change only this matrix caught); vitest's and jest's own expect are tamper-expectations.test.ts's, left out"],
  ['tests/e2e/monorepo.test.ts', "workspace packages tested with node:test and node:assert: their failure text comes from Node"],
  ['tests/integration/pr-comment-upsert.test.ts', "Node's own fetch (undici) against a mock GitHub REST API: pagination and the marker's match"],
];

/**
 * The integration files left to the Node of `npm test`, and why. An integration file in neither list
 * runs in the matrix (as the whole tier did), and the script names it so it gets placed in one.
 */
const NODE_INDEPENDENT = [
  ['tests/integration/presets-never-write.test.ts', "whether each preset's real tool writes the tree: the tool's behaviour"],
  ['tests/integration/preset-scope.test.ts', "mypy, ruff, pytest, tsc, eslint and biome keeping to the project's own config: the tools' behaviour"],
  ['tests/integration/fast-tier-python.test.ts', 'pytest (and testmon) on the tests the change reaches'],
  ['tests/integration/fast-tier-go.test.ts', 'go test and go vet on the packages the change reaches'],
  ['tests/integration/fast-tier-cargo.test.ts', 'cargo test and clippy on the crates the change reaches'],
  ['tests/integration/cargo-keep-going.test.ts', "clippy's --keep-going"],
  ['tests/integration/pytest-internal-error.test.ts', "pytest's INTERNALERROR output"],
  ['tests/integration/gofmt-gate.test.ts', "gofmt's output"],
  ['tests/integration/tsc-subset.test.ts', "tsc's module resolution from the subset tsconfig"],
  ['tests/integration/tsc-typescript-7.test.ts', "TypeScript 7's native tsc: its own binary, not this Node"],
  ['tests/integration/turbo-nx-scope.test.ts', "which packages turbo and Nx run for a change, and their remote caches: the tools' behaviour (their tasks pass; turbo-nx.test.ts reads a failing one under every Node)"],
  ['tests/integration/same-code.test.ts', "whether two versions run the same code, by the project's TypeScript, esbuild and Python: the tools' parsers"],
  ['tests/integration/js-barrel-shapes.test.ts', "which tests gate's import graph picks for vitest, jest, mocha and node:test; the node:test failure text is e2e/monorepo's"],
  ['tests/integration/pytest-coverage-record.test.ts', "what pytest and coverage.py record for each test: the tools' behaviour"],
  ['tests/integration/python-bytecode.test.ts', "which .pyc files Python writes and trusts: the interpreter's behaviour"],
  ['tests/integration/baseline-copy-faults.test.ts', "a baseline copy git cannot make: git's checkout-index and gate's words for it"],
  ['tests/integration/workspace-graph.test.ts', 'workspaces read from their files, go list and cargo metadata; its node --test check of the fixture is what e2e/monorepo asserts under every Node'],
];

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const currentMajor = Number(process.versions.node.split('.')[0]);
const args = process.argv.slice(2);
const allFiles = args.includes('--all-files');
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
const listed = [...NODE_DEPENDENT, ...NODE_INDEPENDENT].map(([path]) => path);
const lost = listed.filter((path) => !existsSync(join(root, path)));
const unplaced = readdirSync(join(root, 'tests', 'integration'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `tests/integration/${name}`)
  .filter((path) => !listed.includes(path));
if (lost.length > 0) {
  // A renamed test file would otherwise silently leave the matrix.
  console.error(`NODE_DEPENDENT or NODE_INDEPENDENT names test paths that do not exist: ${lost.join(', ')}. Update the lists in scripts/test-node-matrix.mjs.`);
  process.exitCode = 1;
} else if (buildIfMissing()) {
  if (unplaced.length > 0) console.log(`run here until placed in NODE_DEPENDENT or NODE_INDEPENDENT (scripts/test-node-matrix.mjs), with why: ${unplaced.join(', ')}`);
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
  const files = allFiles ? [] : [...NODE_DEPENDENT.map(([path]) => path), ...unplaced];
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  delete env.GATE_TEST_REPORT; // .ci/run's report of npm test's run: this run writes its own
  const started = Date.now();
  const run = spawnSync(node, [vitest, 'run', ...projects, ...files, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
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
  console.log(allFiles ? `\nthe ${TIERS.join(', ')} tiers under each Node` : `\nthe tests that depend on Node's version (NODE_DEPENDENT in scripts/test-node-matrix.mjs) under each Node`);
  for (const line of formatTable(header, lines)) console.log(line);
  console.log(`total ${((Date.now() - began) / 1000).toFixed(0)} s, installs and build included`);
}
