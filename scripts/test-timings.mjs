#!/usr/bin/env node
// `npm run test:timings`: where the suite's time goes. Runs vitest with its JSON reporter (the
// arguments after -- go to vitest, e.g. `-- --project e2e`), or reads a report written before
// (`--from report.json`), and prints the wall time, each project's share, and the slowest files.
//
//   npm run test:timings                          every tier (run `npm test` once first: it installs)
//   npm run test:timings -- --project e2e         one tier
//   node scripts/test-timings.mjs --from r.json   a report from `vitest run --reporter=json --outputFile.json=r.json`
//   node scripts/test-timings.mjs --top 30 …      more (or fewer) of the slowest files; 20 by default
//
// A file's time is what vitest's JSON report gives: from its first test's start to its last test's
// end. Importing the file and its beforeAll hooks are not in it (so the unit tier looks nearly free,
// and a file that builds its fixture in beforeAll looks cheaper than it is). Files run side by side,
// so the projects' sums add up to more than the wall time; "share" is of that sum.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTable } from './format-table.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const top = Number(takeOption('--top') ?? 20);
const from = takeOption('--from');

const report = from ? readReport(from) : runVitest(args);
if (report) printTimings(report);

function takeOption(name) {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
}

function readReport(file) {
  return { ...JSON.parse(readFileSync(file, 'utf8')), wallSeconds: undefined };
}

function runVitest(vitestArgs) {
  const dir = mkdtempSync(join(tmpdir(), 'test-timings-'));
  const file = join(dir, 'vitest.json');
  try {
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const started = performance.now();
    const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${file}`, ...vitestArgs], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    const wallSeconds = (performance.now() - started) / 1000;
    process.exitCode = run.status ?? 1;
    try {
      return { ...JSON.parse(readFileSync(file, 'utf8')), wallSeconds };
    } catch {
      console.error(`vitest wrote no report (exit ${run.status ?? run.signal})`);
      return undefined;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A test file's path from tests/ on (the report may come from another checkout). */
function shortPath(path) {
  return /(?:^|\/)(tests\/.*)$/.exec(path)?.[1] ?? relative(root, path);
}

/** The vitest project of a test file: its folder under tests/. */
function projectOf(path) {
  return /^tests\/([^/]+)\//.exec(path)?.[1] ?? '?';
}

function printTimings(report) {
  const files = report.testResults.map((result) => ({
    path: shortPath(result.name),
    project: projectOf(shortPath(result.name)),
    seconds: (result.endTime - result.startTime) / 1000,
    tests: result.assertionResults.length,
    failed: result.status === 'failed',
  }));
  const total = files.reduce((sum, file) => sum + file.seconds, 0);
  const percent = (seconds) => `${((100 * seconds) / total).toFixed(1)}%`;
  const wall = report.wallSeconds ?? (Math.max(...report.testResults.map((result) => result.endTime)) - report.startTime) / 1000;

  console.log(`\n${files.length} files, ${report.numTotalTests} tests (${report.numFailedTests} failed); wall ${wall.toFixed(0)} s; the files' test times add up to ${total.toFixed(0)} s`);
  const projects = new Map();
  for (const file of files) {
    const entry = projects.get(file.project) ?? { files: 0, seconds: 0 };
    projects.set(file.project, { files: entry.files + 1, seconds: entry.seconds + file.seconds });
  }
  printTable(
    ['project', 'files', 'seconds', 'share'],
    [...projects].sort((a, b) => b[1].seconds - a[1].seconds).map(([name, entry]) => [name, String(entry.files), entry.seconds.toFixed(1), percent(entry.seconds)]),
  );
  console.log(`\nthe ${Math.min(top, files.length)} slowest files`);
  printTable(
    ['seconds', 'share', 'tests', 'file'],
    files
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, top)
      .map((file) => [file.seconds.toFixed(1), percent(file.seconds), String(file.tests), `${file.path}${file.failed ? '  (failed)' : ''}`]),
  );
}

function printTable(header, rows) {
  for (const line of formatTable(header, rows)) console.log(line);
}
