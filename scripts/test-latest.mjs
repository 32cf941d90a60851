#!/usr/bin/env node
// `npm run test:latest`: the claude and harness tiers against the newest published version of every
// agent CLI, installed into .cache/ beside the pinned ones. A CLI whose newest version is the pin is
// already covered by `npm test` and is skipped (pass --all to run it anyway). Prints, per CLI, the
// pin, the newest version and the result; docs/compatibility.md records what was verified.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIS } from './cli-versions.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const all = process.argv.includes('--all');
/** Where each CLI's tests live. */
const TESTS = { claude: ['--project', 'claude'], ...Object.fromEntries(Object.keys(CLIS).filter((name) => name !== 'claude').map((name) => [name, ['--project', 'harness', `tests/harness/${name}/`]])) };

function newestVersion(pkg) {
  const result = spawnSync('npm', ['view', pkg, 'version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`npm view ${pkg} version failed:\n${result.stderr}`);
  return result.stdout.trim();
}

const newest = Object.fromEntries(Object.entries(CLIS).map(([name, cli]) => [name, newestVersion(cli.package)]));
const versionsFile = join(root, '.cache', 'latest-versions.json');
mkdirSync(dirname(versionsFile), { recursive: true });
writeFileSync(versionsFile, `${JSON.stringify(newest, null, 2)}\n`);
const env = { ...process.env, GATE_CLI_VERSIONS: versionsFile };

const install = spawnSync(process.execPath, [join(root, 'scripts', 'install-clis.mjs')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
if (install.status !== 0) process.exit(install.status ?? 1);

const rows = [];
for (const [name, cli] of Object.entries(CLIS)) {
  const version = newest[name];
  if (version === cli.pinned && !all) {
    rows.push([cli.label, cli.pinned, version, 'same as the pin: covered by npm test']);
    continue;
  }
  console.log(`\n== ${cli.label} ${version} (pinned ${cli.pinned}) ==`);
  const run = spawnSync('npx', ['vitest', 'run', ...TESTS[name]], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  rows.push([cli.label, cli.pinned, version, run.status === 0 ? 'passed' : `FAILED (exit ${run.status})`]);
}

console.log('\ncli            pinned      newest      result');
for (const [label, pinned, version, result] of rows) console.log(`${label.padEnd(14)} ${pinned.padEnd(11)} ${version.padEnd(11)} ${result}`);
process.exitCode = rows.some((row) => row[3].startsWith('FAILED')) ? 1 : 0;
