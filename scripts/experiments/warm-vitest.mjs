// Experiment for issue 14, point 4: would a per-repo warm vitest server make related runs ≥ 3× faster
// than a cold `vitest related --run` with the same verdicts? Not part of npm test; nothing imports it.
//
// Rerun (takes about an hour on 2 cores; run nothing else heavy meanwhile):
//   npm ci && node scripts/experiments/warm-vitest.mjs [--only 1,5,12] [--keep]
// It packs zod 4.6.7 from the registry into a temp dir and makes its vitest suite runnable as
// scripts/bench.mjs does, starts this same file as a warm server (`serve <root> <socket>`), then applies
// 20 scripted one-file changes. For each: a cold `node_modules/.bin/vitest related --run
// --reporter=default --passWithNoTests <file>` and a warm request over the unix socket, timed, with exit
// status, failing test names and the summary lines compared. Each change is reverted on disk afterwards
// without telling the server, so a server that only invalidated the files it is told about would go stale
// (`--naive` makes it do just that: `--naive --only 10,4` shows the wrong verdict). `--only` takes change
// numbers (1–20, repeats allowed); `--keep` keeps the temp dir; `--node-modules` picks vitest's install.
// Results: docs/performance.md, "Warm vitest (measured, issue 14)".
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

// ---------------------------------------------------------------- server

async function serve(root, socketPath, idleSeconds, naive) {
  const require = createRequire(join(root, 'package.json'));
  const { createVitest, version } = await import(pathToFileURL(require.resolve('vitest/node')).href);
  let sink = [];
  const capture = new Writable({ write(chunk, _encoding, done) { sink.push(String(chunk)); done(); } });
  // vitest pipes each worker's stdout into the logger's stream, and pipe() ends its destination when the
  // worker exits (process.stdout is exempt, a custom stream is not): keep this one open for the next run.
  capture.end = () => capture;
  const vitest = await createVitest('test', { root, watch: false, run: true, reporters: ['default'], passWithNoTests: true }, {}, { stdout: capture, stderr: capture });
  await vitest.standalone();
  // Prime: transform every test file's import graph once, as the first related run would.
  vitest.config.related = [join(root, '.warm-vitest-prime')];
  await vitest.getRelevantTestSpecifications();
  vitest.config.related = undefined;
  // Files vitest's config depends on: if one changes, this server is stale as a whole.
  const restartOn = [vitest.vite.config.configFile, join(root, 'package.json'), join(root, 'package-lock.json')].filter(Boolean);
  const stamp = (file) => { try { const s = statSync(file); return `${s.mtimeMs}:${s.size}:${s.ino}`; } catch { return 'missing'; } };
  const restartStamps = new Map(restartOn.map((file) => [file, stamp(file)]));
  const seen = new Map();
  const graphFiles = () => {
    const files = new Set();
    for (const project of vitest.projects) for (const env of Object.values(project.vite.environments)) for (const file of env.moduleGraph.fileToModulesMap.keys()) if (!file.includes('/node_modules/')) files.add(file);
    return files;
  };
  // A request names the files the agent changed, but files can also change back (a revert) without being
  // named: compare every source file in the module graph with what it was when last transformed.
  const sweep = (invalidate) => {
    const stale = [];
    for (const file of graphFiles()) {
      const now = stamp(file);
      const before = seen.get(file);
      if (before !== undefined && before !== now && invalidate) stale.push(file);
      seen.set(file, now);
    }
    return stale;
  };
  const invalidate = (file) => {
    vitest.logger.clearHighlightCache(file);
    vitest.invalidateFile(file);
    vitest.watcher.invalidates.add(file);
  };
  sweep(false);

  const run = async (request) => {
    if (request.vitest !== version) return { fallback: `version mismatch: server ${version}, client ${request.vitest}` };
    for (const [file, before] of restartStamps) if (stamp(file) !== before) return { fallback: `${file} changed`, exit: true };
    const started = performance.now();
    const files = request.files.map((file) => resolve(root, file));
    const stale = sweep(!naive);
    for (const file of new Set([...files, ...stale])) invalidate(file);
    vitest.clearSpecificationsCache();
    sink = [];
    process.exitCode = undefined;
    vitest.config.related = files;
    const specs = await vitest.getRelevantTestSpecifications();
    vitest.config.related = files;
    const { unhandledErrors } = await vitest.runTestSpecifications(specs, false);
    vitest.config.related = undefined;
    const failed = unhandledErrors.length > 0 || specs.some((spec) => !spec.testModule?.ok());
    sweep(false);
    const status = failed ? 1 : 0;
    process.exitCode = undefined;
    return { status, output: sink.join(''), testFiles: specs.length, stale: stale.length, serverMs: performance.now() - started, rss: process.memoryUsage().rss };
  };

  let queue = Promise.resolve();
  let idleTimer;
  const shutdown = async () => {
    server.close();
    try { unlinkSync(socketPath); } catch {}
    await vitest.close();
    process.exit(0);
  };
  const touch = () => { clearTimeout(idleTimer); idleTimer = setTimeout(shutdown, idleSeconds * 1000); };
  const server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      const request = JSON.parse(buffer.slice(0, end));
      touch();
      queue = queue.then(async () => {
        if (request.op === 'close') { socket.end('{}\n'); await shutdown(); return; }
        let reply;
        try { reply = await run(request); } catch (error) { reply = { fallback: `server error: ${error?.stack ?? error}` }; }
        socket.end(`${JSON.stringify(reply)}\n`);
        if (reply.exit) await shutdown();
        touch();
      });
    });
  });
  try { unlinkSync(socketPath); } catch {}
  server.listen(socketPath, () => { touch(); process.stdout.write(`ready ${version}\n`); });
}

// ---------------------------------------------------------------- client and driver

function ask(socketPath, request, timeoutMs = 900_000) {
  return new Promise((done) => {
    const socket = createConnection(socketPath);
    let text = '';
    const timer = setTimeout(() => { socket.destroy(); done({ fallback: 'timeout' }); }, timeoutMs);
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('error', (error) => { clearTimeout(timer); done({ fallback: `socket: ${error.code}` }); });
    socket.on('end', () => { clearTimeout(timer); try { done(JSON.parse(text)); } catch { done({ fallback: 'bad reply' }); } });
    socket.write(`${JSON.stringify(request)}\n`);
  });
}

const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');
// What the verdict is made of: exit status, every " FAIL  file > test" line, and the summary counts.
function verdictOf(status, output) {
  const text = plain(output);
  const failing = [...new Set(text.split('\n').filter((line) => /^ FAIL {2}/.test(line)).map((line) => line.trim()))].sort();
  const count = (label) => new RegExp(`^\\s*${label}\\s+(.*?)\\s*$`, 'm').exec(text)?.[1] ?? (/No test files found/.test(text) ? 'none' : '?');
  return { status, failing, files: count('Test Files'), tests: count('Tests') };
}

// One-line edits to zod 4.6.7's sources and tests: `expect` is what we think happens, for the reader.
const changes = [
  { file: 'src/v4/core/regexes.ts', find: '/^[cC][0-9a-z]{6,}$/', replace: '/^[cC][0-9a-z]{7,}$/', expect: 'fail', what: 'cuid regex: 7+ chars' },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: zod's source text, not a template
  { file: 'src/v4/locales/en.ts', find: '`Invalid input: expected ${expected}, received ${received}`', replace: '`Invalid input: wanted ${expected}, received ${received}`', expect: 'fail', what: 'en error message' },
  { file: 'src/v4/core/util.ts', find: 'export function joinValues<T extends Primitive[]>(array: T, separator = "|"): string {', replace: 'export function joinValues<T extends Primitive[]>(array: T, separator = "|"): string {\n  // harmless comment', expect: 'pass', what: 'comment in util.ts' },
  { file: 'src/v3/locales/en.ts', find: 'message = "Required";', replace: 'message = "Is required";', expect: 'fail', what: 'v3 "Required" message' },
  { file: 'src/v4/core/tests/email-regex.test.ts', find: null, append: '\n// a harmless trailing comment\n', expect: 'pass', what: 'comment in a test file' },
  { file: 'src/v4/core/regexes.ts', find: 'export const e164: RegExp = /^\\+[1-9]\\d{6,14}$/;', replace: 'export const e164: RegExp = /^\\+[1-9]\\d{6,15}$/;', expect: 'fail?', what: 'e164 regex: 16 digits' },
  { file: 'src/v3/types.ts', find: null, append: '\nexport const harmlessExtra = 1;\n', expect: 'pass', what: 'new export in v3 types.ts' },
  { file: 'src/v4/mini/iso.ts', find: null, append: '\n// a one-line change\n', expect: 'pass', what: 'comment in mini/iso.ts (bench.mjs)' },
  { file: 'src/v4/core/regexes.ts', find: 'export const hex: RegExp = /^[0-9a-fA-F]*$/;', replace: 'export const hex: RegExp = /^[0-9a-f]*$/;', expect: 'fail', what: 'hex regex: lower case only' },
  { file: 'src/v3/tests/string.test.ts', find: null, append: '\ntest("a new failing test", () => { expect(1).toBe(2); });\n', expect: 'fail', what: 'new failing test in a v3 test file' },
  { file: 'src/v4/core/util.ts', find: 'export function floatSafeRemainder(val: number, step: number): number {', replace: 'export function floatSafeRemainder(val: number, step: number): number {\n  if (step === 0.1) return 1;', expect: 'fail', what: 'floatSafeRemainder(x, 0.1) broken' },
  { file: 'src/v4/mini/tests/number.test.ts', find: null, append: '\ntest("one more passing test", () => { expect(1).toBe(1); });\n', expect: 'pass', what: 'new passing test in a mini test file' },
  { file: 'src/v4/locales/en.ts', find: 'return "Invalid input";', replace: 'return "Invalid  input";', expect: 'fail', what: 'en "Invalid input" message' },
  { file: 'src/v3/ZodError.ts', find: null, append: '\n// harmless\n', expect: 'pass', what: 'comment in v3 ZodError.ts' },
  { file: 'src/v4/core/regexes.ts', find: null, append: '\n// harmless\n', expect: 'pass', what: 'comment in regexes.ts' },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: zod's source text, not a template
  { file: 'src/v3/locales/en.ts', find: 'message = `Expected ${issue.expected}, received ${issue.received}`;', replace: 'message = `Expected ${issue.expected}, got ${issue.received}`;', expect: 'fail', what: 'v3 invalid_type message' },
  { file: 'src/v4/core/tests/index.test.ts', find: null, append: '\ntest("a new failing core test", () => { expect("a").toBe("b"); });\n', expect: 'fail', what: 'new failing test in core index.test.ts' },
  { file: 'src/v4/locales/de.ts', find: null, append: '\n// harmless\n', expect: 'pass', what: 'comment in locales/de.ts' },
  { file: 'src/v3/helpers/util.ts', find: 'export function joinValues<T extends any[]>(array: T, separator = " | "): string {', replace: 'export function joinValues<T extends any[]>(array: T, separator = ", "): string {', expect: 'fail', what: 'v3 joinValues default separator' },
  { file: 'src/v4/classic/tests/string.test.ts', find: null, append: '\n// harmless\n', expect: 'pass', what: 'comment in classic string.test.ts' },
];

function setUpZod(base, nodeModules) {
  execFileSync('npm', ['pack', 'zod@4.6.7', '--silent'], { cwd: base, stdio: 'ignore' });
  execFileSync('tar', ['xzf', 'zod-4.6.7.tgz'], { cwd: base });
  const dir = join(base, 'package');
  symlinkSync(nodeModules, join(dir, 'node_modules'));
  // As scripts/bench.mjs: point "zod", "zod/v4" … at the sources. Three test files import dev
  // dependencies the tarball doesn't list; they are left out so a clean tree passes.
  const alias = (find, file) => `{ find: /^${find.replaceAll('/', '\\/')}$/, replacement: fileURLToPath(new URL('./src/${file}', import.meta.url)) }`;
  const aliases = [['zod/v4/core', 'v4/core/index.ts'], ['zod/v4/locales', 'v4/locales/index.ts'], ['zod/v4-mini', 'v4-mini/index.ts'], ['zod/mini', 'mini/index.ts'], ['zod/v4', 'v4/index.ts'], ['zod/v3', 'v3/index.ts'], ['zod', 'index.ts']];
  const missingDeps = ['file', 'redos', 'to-json-schema'].map((name) => `'src/v4/classic/tests/${name}.test.ts'`).join(', ');
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `import { configDefaults, defineConfig } from 'vitest/config';\nimport { fileURLToPath } from 'node:url';\nexport default defineConfig({ resolve: { alias: [${aliases.map(([f, t]) => alias(f, t)).join(', ')}] }, test: { include: ['src/**/*.test.ts'], exclude: [...configDefaults.exclude, ${missingDeps}] } });\n`,
  );
  mkdirSync(join(dir, '.git', 'gate'), { recursive: true });
  return dir;
}

function rssOfTree(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try { const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]); children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]); } catch {}
  }
  let total = 0;
  const visit = (p) => {
    try { total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))[1]); } catch {}
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return Math.round(total / 1024);
}

const median = (samples) => { const s = [...samples].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

async function drive(options) {
  const base = mkdtempSync(join(tmpdir(), 'gate-warm-vitest-'));
  const dir = setUpZod(base, resolve(options['node-modules']));
  const vitestVersion = JSON.parse(readFileSync(join(dir, 'node_modules', 'vitest', 'package.json'), 'utf8')).version;
  const socketPath = join(dir, '.git', 'gate', 'vitest.sock');
  const bootStarted = performance.now();
  const server = spawn(process.execPath, [import.meta.filename, 'serve', dir, socketPath, '3600', ...(options.naive ? ['naive'] : [])], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((ready, fail) => {
    server.stdout.on('data', (chunk) => { if (String(chunk).startsWith('ready')) ready(); });
    server.on('exit', (code) => fail(new Error(`server exited ${code}`)));
  });
  console.log(`zod 4.6.7 in ${dir}; vitest ${vitestVersion}; warm server pid ${server.pid} up in ${(performance.now() - bootStarted).toFixed(0)} ms, RSS ${rssOfTree(server.pid)} MB`);
  const cold = (file) => {
    const started = performance.now();
    const result = spawnSync(join(dir, 'node_modules', '.bin', 'vitest'), ['related', '--run', '--reporter=default', '--passWithNoTests', file], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    return { ms: performance.now() - started, status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  const warm = async (file) => {
    const started = performance.now();
    const reply = await ask(socketPath, { vitest: vitestVersion, files: [file] });
    return { ms: performance.now() - started, ...reply };
  };
  const rows = [];
  const picked = options.only ? options.only.split(',').map(Number) : changes.map((_, i) => i + 1);
  for (const number of picked) {
    const change = changes[number - 1];
    const path = join(dir, change.file);
    const original = readFileSync(path, 'utf8');
    if (change.find !== null && !original.includes(change.find)) throw new Error(`change ${number}: "${change.find}" not found in ${change.file}`);
    writeFileSync(path, change.find === null ? original + change.append : original.replace(change.find, change.replace));
    const order = number % 2 ? ['cold', 'warm'] : ['warm', 'cold'];
    const runs = {};
    for (const kind of order) runs[kind] = kind === 'cold' ? cold(change.file) : await warm(change.file);
    writeFileSync(path, original);
    if (runs.warm.fallback) { console.log(`${number}: warm fell back: ${runs.warm.fallback}`); rows.push({ number, change, cold: runs.cold, warm: runs.warm, same: false }); continue; }
    const a = verdictOf(runs.cold.status, runs.cold.output);
    const b = verdictOf(runs.warm.status, runs.warm.output);
    const same = JSON.stringify(a) === JSON.stringify(b);
    rows.push({ number, change, cold: runs.cold, warm: runs.warm, a, b, same });
    console.log(`${String(number).padStart(2)} ${change.what.padEnd(38)} cold ${runs.cold.ms.toFixed(0).padStart(6)} ms  warm ${runs.warm.ms.toFixed(0).padStart(6)} ms  ${(runs.cold.ms / runs.warm.ms).toFixed(2).padStart(5)}×  exit ${a.status}/${b.status}  failing ${a.failing.length}/${b.failing.length}  files ${a.files} | ${b.files}  stale ${runs.warm.stale}  ${same ? 'same' : 'DIFFERENT'}`);
    if (!same) {
      writeFileSync(join(base, `cold-${number}.txt`), plain(runs.cold.output));
      writeFileSync(join(base, `warm-${number}.txt`), plain(runs.warm.output));
      console.log(`   outputs kept in ${base}/{cold,warm}-${number}.txt`);
    }
  }
  const rss = rssOfTree(server.pid);
  await ask(socketPath, { op: 'close' });
  const coldMedian = median(rows.map((r) => r.cold.ms));
  const warmMedian = median(rows.map((r) => r.warm.ms));
  console.log(`\nmedians: cold ${coldMedian.toFixed(0)} ms, warm ${warmMedian.toFixed(0)} ms, ratio ${(coldMedian / warmMedian).toFixed(2)}×`);
  console.log(`verdicts identical: ${rows.filter((r) => r.same).length}/${rows.length}; warm server RSS after ${rows.length} runs: ${rss} MB (server + workers), server process alone ${(rows.at(-1)?.warm.rss / 2 ** 20).toFixed(0)} MB`);
  console.log(`per-run warm server RSS (MB): ${rows.map((r) => (r.warm.rss / 2 ** 20).toFixed(0)).join(' ')}`);
  writeFileSync(join(base, 'results.json'), JSON.stringify(rows.map(({ number, change, cold, warm, a, b, same }) => ({ number, what: change.what, file: change.file, coldMs: cold.ms, warmMs: warm.ms, warmServerMs: warm.serverMs, testFiles: warm.testFiles, stale: warm.stale, rss: warm.rss, cold: a, warm: b, same })), null, 2));
  console.log(`results: ${join(base, 'results.json')}`);
  if (!options.keep) rmSync(join(base, 'package'), { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { only: { type: 'string' }, 'node-modules': { type: 'string', default: resolve(import.meta.dirname, '..', '..', 'node_modules') }, keep: { type: 'boolean', default: false }, naive: { type: 'boolean', default: false } } });
if (positionals[0] === 'serve') await serve(resolve(positionals[1]), positionals[2], Number(positionals[3] ?? 900), positionals[4] === 'naive');
else await drive(values);
