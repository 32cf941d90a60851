// npm run bench:projects: what a stop costs on real projects nobody here wrote, one per stack,
// pinned, fetched once into .cache/bench-projects/ (scripts/bench-projects/<project>.mjs says where
// from and what each edit is). For every preset that applies, in a fresh temp git repo
// (scripts/bench-projects/turns.mjs): the cold first stop after an edit that breaks something, the
// second stop after another one-file edit that breaks something else (warm caches: the fast tier's
// case), and the preset's full command run directly on that same state. Projects marked `init`
// (radashi, urql, click, starlette) are measured whole instead, with the gates `gate init` writes
// (scripts/bench-projects/init-turns.mjs). --gate <dir> measures another gate checkout's build
// (bin/gate.cjs), e.g. an older commit's, for a before/after table. Not part of npm test.
// Usage: node scripts/bench-projects.mjs [--only ts,go,rust,python|<project>|<preset>,…] [--runs N] [--gate <dir> [--gate-commit <hash>]] [--keep] [--verbose] [--init-check] [--turn-seconds N] [--no-post-edit]
// --init-check: whole projects are installed with `gate init --yes` as documented (it runs every gate once,
// so the stops start from known results and warm tool caches) instead of `--no-check`.
// --gate-commit: the commit a --gate folder was built from, for the table (a `git archive` has no .git).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { versionOf } from './bench-projects/fetch.mjs';
import { goldmark } from './bench-projects/goldmark.mjs';
import { pint } from './bench-projects/pint.mjs';
import { regexSyntax } from './bench-projects/regex-syntax.mjs';
import { benchInit, EXTRA_TURNS } from './bench-projects/init-turns.mjs';
import { click } from './bench-projects/click.mjs';
import { radashi } from './bench-projects/radashi.mjs';
import { starlette } from './bench-projects/starlette.mjs';
import { urql } from './bench-projects/urql.mjs';
import { benchGate } from './bench-projects/turns.mjs';
import { zod } from './bench-projects/zod.mjs';

const PROJECTS = [zod, goldmark, regexSyntax, pint, radashi, urql, click, starlette];
const TARGET = 0.25; // the second stop's share of the full command that the fast tiers aim for
// The turns of init-turns.mjs in order, and the exit code each stop must give (2 block, 0 allow).
const INIT_TURNS = ['module', 'fix', 'test', 'testFix', ...EXTRA_TURNS.flatMap((turn) => [turn.key, ...(turn.fix ? [turn.fix] : [])])];
const WANT = { module: 2, fix: 0, test: 2, testFix: 0, ...Object.fromEntries(EXTRA_TURNS.flatMap((turn) => [[turn.key, turn.want], ...(turn.fix ? [[turn.fix, 0]] : [])])) };
// Issue 39's targets, as a share of the project's own full run.
const EXTRA_TARGET = { comment: 0.1, shared: 0.4, moduleAndTest: 0.1 };


const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    runs: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    'init-check': { type: 'boolean', default: false },
    // How long each turn of the init bench lasts before its stop (the agent's own time: the prompt
    // hook's background gathering of the start's evidence works meanwhile). 0: the stop comes at once.
    'turn-seconds': { type: 'string', default: '0' },
    // Edits with no post-edit hook after them (as a shell command makes them): no checks ahead of the stop.
    'no-post-edit': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    gate: { type: 'string' },
    'gate-commit': { type: 'string' },
  },
});
const runs = Number(values.runs);
const turnSeconds = Number(values['turn-seconds']);
if (!(turnSeconds >= 0)) throw new Error(`--turn-seconds wants a number ≥ 0, got ${values['turn-seconds']}`);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number ≥ 1, got ${values.runs}`);
const only = values.only?.split(',').map((word) => word.trim()).filter(Boolean);
const picked = (project, preset) => !only || only.some((word) => [project.stack, project.id, preset].includes(word));

const root = resolve(import.meta.dirname, '..');
const cache = join(root, '.cache', 'bench-projects');
const gateDir = resolve(values.gate ?? root);
const bin = join(gateDir, 'bin', 'gate.cjs');
if (!existsSync(bin) || !existsSync(join(gateDir, 'dist'))) throw new Error(`--gate ${gateDir}: no bin/gate.cjs and dist/ there (npm run build in it first)`);
const gateCommit = values['gate-commit'] ?? (spawnSync('git', ['-C', gateDir, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).stdout.trim() || '?');
mkdirSync(cache, { recursive: true });
const log = (line) => process.stderr.write(`${line}\n`);

// The pinned Python tools and Go that scripts/install-tools.mjs provides (fast when they are there).
const tools = spawnSync(process.execPath, [join(root, 'scripts', 'install-tools.mjs')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
process.stdout.write(tools.stdout);
const toolsBin = join(root, '.cache', 'tools', 'py', 'bin');
const toolsStamp = join(root, '.cache', 'tools', 'py', 'gate-tools.json');
const toolsPins = existsSync(toolsStamp) ? JSON.parse(readFileSync(toolsStamp, 'utf8')).pins : [];
const cargoBin = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin');
const rustupHome = process.env.RUSTUP_HOME ?? join(homedir(), '.rustup');
const basePath = [toolsBin, '/usr/lib/go/bin', '/usr/local/go/bin', cargoBin].filter((dir) => existsSync(dir));
const stackEnv = { ...(existsSync(rustupHome) ? { RUSTUP_HOME: rustupHome } : {}) };
const has = (program, path) => path.some((dir) => existsSync(join(dir, program))) || (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, program)));

const rows = [];
const initRows = [];
const results = [];
for (const project of PROJECTS) {
  const gates = project.init ? (picked(project) ? [null] : []) : project.gates.filter((gate) => picked(project, gate.preset));
  if (gates.length === 0) continue;
  const missing = (project.needs ?? []).filter((program) => !has(program, basePath));
  if (missing.length > 0 || (project.stack === 'python' && toolsPins.length === 0)) {
    log(`${project.title}: skipped, ${missing.length > 0 ? `${missing.join(', ')} not found` : 'no .cache/tools/py (scripts/install-tools.mjs failed)'}`);
    continue;
  }
  log(`${project.title} (${project.origin}): fetching and preparing…`);
  const ctx = { root, cache, toolsPython: join(toolsBin, 'python'), toolsPins };
  const source = project.fetch(ctx);
  const path = [...(project.path?.(ctx) ?? []), ...basePath];
  const env = { ...process.env, ...stackEnv, PATH: [...path, process.env.PATH].join(delimiter) };
  const templateBase = mkdtempSync(join(tmpdir(), `gate-bench-${project.id}-template-`));
  const template = join(templateBase, 'repo');
  mkdirSync(template);
  try {
    const note = project.prepare(source, template, { ...ctx, env });
    if (note) log(`  fix-ups: ${note}`);
    if (project.init) {
      const samples = [];
      for (let run = 1; run <= runs; run++) {
        log(`  gate init's gates: run ${run} of ${runs}…`);
        const result = benchInit({ project, template, env: { ...stackEnv, ...project.env() }, path, ctx, bin, keep: values.keep, initCheck: values['init-check'], turnSeconds, postEdit: !values['no-post-edit'] });
        samples.push(result);
        describeInit(result);
      }
      initRows.push(initRow(project, samples));
      results.push({ project: project.id, title: project.title, origin: project.origin, init: true, edits: Object.fromEntries(INIT_TURNS.filter((key) => project[key]).map((key) => [key, project[key].what])), samples: samples.map(stripInit) });
    }
    for (const gate of gates.filter(Boolean)) {
      const samples = [];
      for (let run = 1; run <= runs; run++) {
        log(`  ${gate.preset}: run ${run} of ${runs}…`);
        const result = benchGate({
          template,
          preset: gate.preset,
          first: gate.first,
          second: gate.second,
          env: (caches) => ({ ...stackEnv, ...project.env(caches) }),
          path,
          label: `${project.id}-${gate.preset}`,
          keep: values.keep,
          bin,
        });
        samples.push(result);
        describe(result);
      }
      rows.push(row(project, gate, samples));
      results.push({ project: project.id, title: project.title, origin: project.origin, preset: gate.preset, first: gate.first.what, second: gate.second.what, samples: samples.map(strip) });
    }
  } catch (error) {
    log(`${project.title}: failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  } finally {
    rmSync(templateBase, { recursive: true, force: true });
  }
}

function describe(result) {
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const stop = (s) => `${seconds(s.ms)} exit ${s.code} (gate ran ${s.gateMs === null ? '?' : seconds(s.gateMs)} [${s.tier}])`;
  log(`    ${result.files} files; cold stop ${stop(result.cold)}; undo stop exit ${result.fix.code}; second stop ${stop(result.second)}; full \`${result.command}\` ${seconds(result.full.ms)} exit ${result.full.code}`);
  if (result.kept) log(`    kept: ${result.kept}`);
  const show = (name, text) => log(`    --- ${name} ---\n${text.trimEnd().split('\n').map((line) => `    | ${line}`).join('\n')}`);
  if (values.verbose || !result.cold.named) show('cold stop report', result.cold.report);
  if (values.verbose || result.fix.code !== 0) show('fix stop report', result.fix.report);
  if (values.verbose || !result.second.named) show('second stop report', result.second.report);
  if (values.verbose || result.full.code === 0) show('full command output (tail)', result.full.output);
}

function describeInit(result) {
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const stop = (s) => `${seconds(s.ms)} exit ${s.code} [${s.tier}]`;
  log(`    ${result.files} files, ${result.gates} gates; full \`${result.command}\` ${seconds(result.full.ms)} exit ${result.full.code}`);
  log(`    module ${stop(result.module)}; fix ${stop(result.fix)}; test ${stop(result.test)}; test fix ${stop(result.testFix)}`);
  const extra = INIT_TURNS.slice(4).filter((key) => result[key]);
  if (extra.length > 0) log(`    ${extra.map((key) => `${key} ${stop(result[key])}`).join('; ')}`);
  log(`    load (1-minute average): ${result.load.full} after the full command, ${result.load.end} at the end`);
  if (result.kept) log(`    kept: ${result.kept}`);
  const show = (name, text) => log(`    --- ${name} ---\n${text.trimEnd().split('\n').map((line) => `    | ${line}`).join('\n')}`);
  for (const [key, want] of Object.entries(WANT)) {
    if (result[key] && (values.verbose || result[key].code !== want || !result[key].named)) show(`${key} stop report`, result[key].report);
  }
  if (values.verbose || result.full.code !== 0) show('full command output (tail)', result.full.output);
}

function initRow(project, samples) {
  const turns = INIT_TURNS.filter((key) => samples[0][key]);
  const codes = samples.map((s) => turns.map((key) => s[key].code).join('/')).join(' ');
  const right = samples.every((s) => (s.full.code === 0 || project.redAtStart) && turns.every((key) => s[key].code === WANT[key]));
  const named = samples.every((s) => turns.every((key) => s[key].named));
  const time = (key) => median(samples.map((s) => s[key].ms));
  const full = time('full');
  const share = (ms, target = project.target) => `${Math.round((ms / full) * 100)}%${ms / full <= target ? '' : ' *'}`;
  const extra = (key, fix) => (samples[0][key] ? { stop: `${(time(key) / 1000).toFixed(1)} s${fix && samples[0][fix] ? ` (fix ${(time(fix) / 1000).toFixed(1)} s)` : ''}`, share: share(time(key), EXTRA_TARGET[key]) } : { stop: '-', share: '-' });
  const comment = extra('comment');
  const shared = extra('shared', 'sharedFix');
  const moduleAndTest = extra('moduleAndTest', 'moduleAndTestFix');
  const loads = samples.flatMap((s) => [s.load.full, s.load.end]);
  return {
    project: project.title,
    gates: String(samples[0].gates),
    full: `${(full / 1000).toFixed(1)} s`,
    module: `${(time('module') / 1000).toFixed(1)} s`,
    fix: `${(time('fix') / 1000).toFixed(1)} s`,
    test: `${(time('test') / 1000).toFixed(1)} s`,
    testFix: `${(time('testFix') / 1000).toFixed(1)} s`,
    moduleShare: share(time('module')),
    testShare: share(time('test')),
    target: `${project.target * 100}%`,
    comment: comment.stop,
    commentShare: comment.share,
    shared: shared.stop,
    sharedShare: shared.share,
    moduleAndTest: moduleAndTest.stop,
    moduleAndTestShare: moduleAndTest.share,
    load: `${Math.min(...loads)}-${Math.max(...loads)}`,
    verdict: `${right ? 'yes' : 'NO'} (${codes})${named ? '' : ', a report misses the failing test'}`,
  };
}

function stripInit(result) {
  return { ...result, full: { ...result.full, output: undefined } };
}

function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function row(project, gate, samples) {
  const right = samples.every((s) => s.cold.code === 2 && s.fix.code === 0 && s.second.code === 2 && s.full.code !== 0 && s.full.code !== null);
  const codes = samples.map((s) => `${s.cold.code}/${s.fix.code}/${s.second.code}`).join(' ');
  const named = (key) => samples.every((s) => s[key].named);
  const cold = median(samples.map((s) => s.cold.ms));
  const second = median(samples.map((s) => s.second.ms));
  const full = median(samples.map((s) => s.full.ms));
  return {
    project: project.title,
    gate: gate.preset,
    files: String(samples[0].files),
    cold: `${(cold / 1000).toFixed(1)} s`,
    second: `${(second / 1000).toFixed(1)} s`,
    full: `${(full / 1000).toFixed(1)} s`,
    ratio: `${Math.round((second / full) * 100)}%${second / full <= TARGET ? '' : ' *'}`,
    verdict: right ? `yes (${codes})` : `NO (${codes})`,
    named: named('cold') && named('second') ? 'yes' : `cold ${named('cold') ? 'yes' : 'NO'}, second ${named('second') ? 'yes' : 'NO'}`,
  };
}

function strip(result) {
  return { ...result, cold: { ...result.cold }, second: { ...result.second }, full: { ...result.full, output: undefined } };
}

const COLUMNS = [
  ['project', 'project'],
  ['gate', 'gate'],
  ['files', 'files'],
  ['cold', 'cold stop'],
  ['second', 'second stop'],
  ['full', 'full command'],
  ['ratio', 'second/full'],
  ['verdict', 'verdict right? (exit a/fix/b)'],
  ['named', 'report names failure?'],
];
const INIT_COLUMNS = [
  ['project', 'project'],
  ['gates', 'gates'],
  ['full', 'full command'],
  ['module', 'module stop'],
  ['fix', 'fix stop'],
  ['test', 'test stop'],
  ['testFix', 'test-fix stop'],
  ['moduleShare', 'module/full'],
  ['testShare', 'test/full'],
  ['target', 'target'],
  ['comment', 'comment stop'],
  ['commentShare', 'comment/full (≤10%)'],
  ['shared', 'one-function stop'],
  ['sharedShare', 'one-function/full (≤40%)'],
  ['moduleAndTest', 'module+test stop'],
  ['moduleAndTestShare', 'module+test/full (≤10%)'],
  ['load', 'load'],
  ['verdict', 'verdicts right? (full 0; module/fix/test/test-fix[/comment/one-function/fix/module+test/fix])'],
];
function table(columns, tableRows) {
  const widths = columns.map(([key, title]) => Math.max(title.length, ...tableRows.map((r) => r[key].length)));
  const line = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  console.log(line(columns.map(([, title]) => title)));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const r of tableRows) console.log(line(columns.map(([key]) => r[key])));
}
if (rows.length > 0 || initRows.length > 0) {
  console.log(`\ngate ${gateDir} (${gateCommit}); node ${process.version}; ${runs} run${runs === 1 ? '' : 's'} each${runs > 1 ? ', medians' : ''} (see docs/performance.md)`);
}
if (initRows.length > 0) {
  console.log(`\nWhole projects, with the gates \`gate init --yes${values['init-check'] ? '' : ' --no-check'}\` writes${values['init-check'] ? ' (after its run of every gate, as a user installs it)' : ''}${turnSeconds ? `; each turn's first stop ${turnSeconds} s after its prompt (the agent's time)` : "; each stop right after its turn's edit"}${values['no-post-edit'] ? '; edits with no post-edit hook (no checks ahead of the stop)' : "; each edit followed by the post-edit hook, as Claude Code runs it"}; full: the project's own command (radashi, urql: vitest run; click, starlette: pytest); load: the machine's 1-minute load average over the run`);
  table(INIT_COLUMNS, initRows);
  if (initRows.some((r) => [r.moduleShare, r.testShare, r.commentShare, r.sharedShare, r.moduleAndTestShare].some((cell) => cell.endsWith('*')))) {
    console.log('* stop above its target share of the full command (issue 27: module/test ≤ 25%, radashi ≤ 10%; issue 39: comment ≤ 10%, one function ≤ 40%, module+test ≤ 10%)');
  }
}
if (rows.length > 0) {
  console.log('\nOne preset at a time; all three timings from the same state');
  table(COLUMNS, rows);
  if (rows.some((r) => r.ratio.endsWith('*'))) console.log(`* second stop above ${TARGET * 100}% of the full command (the fast tiers' target where the project is big enough to matter)`);
}
if (rows.length > 0 || initRows.length > 0) {
  const out = join(cache, `results-${new Date().toISOString().replaceAll(':', '-').replace(/\.\d+Z$/, 'Z')}.json`);
  writeFileSync(out, `${JSON.stringify({ gate: { dir: gateDir, commit: gateCommit }, node: process.version, runs, tools: versionsOfTools(), results }, null, 2)}\n`);
  console.log(`details (reports included): ${out.slice(root.length + 1)}`);
}

if (rows.length === 0 && initRows.length === 0 && process.exitCode === undefined) log(`nothing measured: --only ${values.only} names no stack (ts, go, rust, python), project (${PROJECTS.map((p) => p.id).join(', ')}) or preset, or every tool was missing`);

function versionsOfTools() {
  return { tools: tools.stdout.trim().split('\n'), git: versionOf('git') };
}
