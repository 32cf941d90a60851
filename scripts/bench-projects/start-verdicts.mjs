#!/usr/bin/env node
// Issue 37's measurement: the verdicts of "which failures were already there" on real projects,
// before and after, driven the way Claude Code drives gate (a UserPromptSubmit payload, the turn's
// edits, a Stop payload). Each scenario runs on a fresh copy of the project per build.
//
//   node scripts/bench-projects/start-verdicts.mjs --gate before=/tmp/gate-before --gate after=/tmp/gate-after \
//     [--work /tmp/sv] [--only starlette-dirty,click-dirty] [--suite] [--turn-seconds N]
//
// A build is a folder holding bin/gate.cjs (a `git archive` of a commit, built). Projects come from
// the bare git dirs in GATE_BENCH_MIRRORS (<owner>+<name>/repo, default /work/.mirror) at the pinned
// commits below. Python wheels are downloaded once with the machine's pip (its own index settings)
// into <work>/wheels-<project>; each copy makes its own .venv from them, offline. Results go to
// <work>/results.jsonl (one line a run) and are printed as a table. ripgrep is not here: its crates
// come from crates.io only (see the issue's note).
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const builds = {};
let work = '/tmp/sv';
let only = null;
let suite = false;
let turnSeconds = 0;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--gate') { const [name, dir] = args[++i].split('='); builds[name] = dir; }
  else if (args[i] === '--work') work = args[++i];
  else if (args[i] === '--only') only = args[++i].split(',');
  else if (args[i] === '--suite') suite = true;
  else if (args[i] === '--turn-seconds') turnSeconds = Number(args[++i]);
  else throw new Error(`unknown argument ${args[i]}`);
}
if (Object.keys(builds).length === 0) throw new Error('give at least one --gate name=dir');
const mirrors = process.env.GATE_BENCH_MIRRORS ?? '/work/.mirror';
mkdirSync(work, { recursive: true });
const home = join(work, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n');
// Hermetic git; pip keeps the machine's own configuration (its index).
const baseEnv = { ...process.env, GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
delete baseEnv.GATE;

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', env: baseEnv, maxBuffer: 256 << 20, ...opts });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${argv.join(' ')} (in ${opts.cwd ?? '.'}) exited ${r.status}: ${(r.stderr || r.stdout || '').slice(-2000)}`);
  return r;
}

const PROJECTS = {
  starlette: {
    mirror: 'Kludex+starlette', commit: '5174d4c8358a6f06aa8056bafd14c2272dab8dd1',
    // Its dev group, as the index has it: mypy 2.4.0 / ruff 0.16.9 (2.1.0 / 0.15.19 absent), importlib-metadata
    // 9.0.1 (9.0.0 absent), no types-PyYAML, no backports-zstd (httpx2[zstd]), anyio 4.15.1 only (lock: 4.14.0).
    wheels: ['itsdangerous', 'jinja2', 'python-multipart>=0.0.18', 'pyyaml', 'httpx>=0.27.0,<0.29.0', 'httpx2>=2.0.0', 'anyio>=3.6.2,<5', 'typing_extensions', 'coverage>=7.8.2', 'importlib-metadata==9.0.1', 'mypy==2.4.0', 'ruff==0.16.9', 'pytest==9.1.1', 'trio', 'hatchling', 'editables'],
    install: ['itsdangerous', 'jinja2', 'python-multipart', 'pyyaml', 'httpx', 'httpx2', 'anyio', 'typing_extensions', 'coverage', 'importlib-metadata', 'mypy', 'ruff', 'pytest', 'trio', 'hatchling', 'editables'],
    patch(dir) {
      // anyio 4.15 deprecates anyio.abc.BlockingPortal; starlette's filterwarnings=error makes that a conftest ImportError.
      const file = join(dir, 'pyproject.toml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('    "error",\n', '    "error",\n    "ignore:The anyio.abc.BlockingPortal alias is deprecated:DeprecationWarning",\n'));
      return 'bench: ignore anyio 4.15 BlockingPortal alias deprecation (index lacks anyio 4.14.0)';
    },
  },
  // ripgrep's shape (issue 37 point 4) without crates.io: four independent crates, clippy::eq_op in a and z.
  // Without --keep-going cargo starts no other crate once one fails, so which of a and z a run
  // reports depends on its scheduling.
  cargo4: {
    make(dir) {
      writeFileSync(join(dir, 'Cargo.toml'), '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n');
      writeFileSync(join(dir, '.gitignore'), 'target\n');
      for (const c of ['a', 'b', 'c', 'z']) {
        mkdirSync(join(dir, 'crates', c, 'src'), { recursive: true });
        writeFileSync(join(dir, 'crates', c, 'Cargo.toml'), `[package]\nname = "${c}"\nversion = "0.1.0"\nedition = "2021"\n`);
        const body = c === 'a' || c === 'z' ? '    let y = 5;\n    if y == y { x + y } else { x }' : '    x + 5';
        writeFileSync(join(dir, 'crates', c, 'src/lib.rs'), `/// Adds.\npub fn add(x: i32) -> i32 {\n${body}\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(super::add(1), 6);\n    }\n}\n`);
      }
    },
  },
  click: {
    mirror: 'pallets+click', commit: '2c8cd3ac958a7eb316d67f2d316c27086c4c0369',
    wheels: ['flit_core', 'mypy==2.4.0', 'ruff==0.16.9', 'pytest==9.1.1'],
    install: ['flit_core', 'mypy', 'ruff', 'pytest'],
  },
};

function insertBefore(dir, file, anchor, text) {
  const path = join(dir, file);
  const src = readFileSync(path, 'utf8');
  if (!src.includes(anchor)) throw new Error(`${file}: no ${anchor}`);
  writeFileSync(path, src.replace(anchor, `${text}${anchor}`));
}
function replaceIn(dir, file, from, to) {
  const path = join(dir, file);
  const src = readFileSync(path, 'utf8');
  if (!src.includes(from)) throw new Error(`${file}: no ${from}`);
  writeFileSync(path, src.replace(from, to));
}

/** An itsdangerous 2.2.1 whose TimestampSigner rejects every signature: a real wheel, installed over 2.2.0. */
function brokenItsdangerous() {
  const out = join(work, 'itsdangerous-2.2.1-py3-none-any.whl');
  if (existsSync(out)) return out;
  const wheel = readdirSync(join(work, 'wheels-starlette')).find((f) => f.startsWith('itsdangerous-2.2.0'));
  const py = `
import base64, hashlib, os, sys, zipfile, tempfile
src, out = sys.argv[1], sys.argv[2]
d = tempfile.mkdtemp(); zipfile.ZipFile(src).extractall(d); os.chdir(d)
p = 'itsdangerous/timed.py'; s = open(p).read()
a = '        try:\\n            result = super().unsign(signed_value)'
assert a in s
open(p, 'w').write(s.replace(a, '        raise BadSignature("bench 2.2.1: timed signatures are never valid")\\n' + a, 1))
os.rename('itsdangerous-2.2.0.dist-info', 'itsdangerous-2.2.1.dist-info')
m = 'itsdangerous-2.2.1.dist-info/METADATA'; t = open(m).read(); open(m, 'w').write(t.replace('Version: 2.2.0', 'Version: 2.2.1', 1))
files = sorted(os.path.relpath(os.path.join(r, f), '.') for r, _, fs in os.walk('.') for f in fs if f != 'RECORD')
rec = [f + ',sha256=' + base64.urlsafe_b64encode(hashlib.sha256(open(f, 'rb').read()).digest()).rstrip(b'=').decode() + ',' + str(os.path.getsize(f)) for f in files]
open('itsdangerous-2.2.1.dist-info/RECORD', 'w').write('\\n'.join(rec + ['itsdangerous-2.2.1.dist-info/RECORD,,']) + '\\n')
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for f in files + ['itsdangerous-2.2.1.dist-info/RECORD']: z.write(f, f)
`;
  run('python3', ['-c', py, join(work, 'wheels-starlette', wheel), out]);
  return out;
}

// Each turn: `before` runs ahead of the prompt (the start's own state), `turn` after it.
const SCENARIOS = {
  'starlette-dirty': {
    project: 'starlette', what: 'dirty start (1 uncommitted line in docs/index.md), turn adds a comment in starlette/routing.py',
    before: (dir) => appendFileSync(join(dir, 'docs/index.md'), '\nA line of the user\'s own, not committed.\n'),
    turn: (dir) => insertBefore(dir, 'starlette/routing.py', 'def request_response(', '# gate bench: a comment only\n'),
  },
  'starlette-env-lock': {
    project: 'starlette', what: 'turn bumps itsdangerous in uv.lock and pip-installs 2.2.1 (breaks the session tests)',
    turn: (dir) => {
      replaceIn(dir, 'uv.lock', 'name = "itsdangerous"\nversion = "2.2.0"', 'name = "itsdangerous"\nversion = "2.2.1"');
      run(join(dir, '.venv/bin/pip'), ['install', '-q', '--no-index', '--no-deps', brokenItsdangerous()], { cwd: dir });
    },
  },
  'starlette-env-only': {
    project: 'starlette', what: 'turn pip-installs itsdangerous 2.2.1 (no file edited) and adds a comment in starlette/routing.py',
    turn: (dir) => {
      run(join(dir, '.venv/bin/pip'), ['install', '-q', '--no-index', '--no-deps', brokenItsdangerous()], { cwd: dir });
      insertBefore(dir, 'starlette/routing.py', 'def request_response(', '# gate bench: a comment only\n');
    },
  },
  'starlette-break': {
    project: 'starlette', what: 'clean start, turn breaks one test (tests/test_routing.py)',
    turn: (dir) => replaceIn(dir, 'tests/test_routing.py', 'assert response.text == "Hello, world"', 'assert response.text == "Hello, world!"'),
  },
  'starlette-dirty-break': {
    project: 'starlette', what: 'dirty start (as starlette-dirty), turn breaks PlainTextResponse\'s media type in starlette/responses.py',
    before: (dir) => appendFileSync(join(dir, 'docs/index.md'), '\nA line of the user\'s own, not committed.\n'),
    turn: (dir) => replaceIn(dir, 'starlette/responses.py', 'media_type = "text/plain"', 'media_type = "text/plan"'),
  },
  'cargo4-doc': {
    project: 'cargo4', checkAll: true, what: 'clippy red in crates a and z; gate check --all; a doc-comment-only turn in a and z',
    turn: (dir) => { for (const c of ['a', 'z']) replaceIn(dir, `crates/${c}/src/lib.rs`, '/// Adds.\n', '/// Adds five to `x`.\n'); },
  },
  'click-dirty': {
    project: 'click', what: 'dirty start (uncommitted docs edit), turn adds a comment above a function in src/click/utils.py',
    before: (dir) => appendFileSync(join(dir, 'docs/api.md'), '\nA line of the user\'s own, not committed.\n'),
    turn: (dir) => insertBefore(dir, 'src/click/utils.py', 'def make_str(', '# gate bench: a comment only\n'),
  },
  'click-dirty-red': {
    project: 'click', what: 'click made a little red first (2 mypy errors committed in src/click/_compat.py), then as click-dirty',
    red: (dir) => appendFileSync(join(dir, 'src/click/_compat.py'), '\n\ndef _gate_bench_old_a() -> int:\n    return "a"\n\n\ndef _gate_bench_old_b() -> str:\n    return 1\n'),
    before: (dir) => appendFileSync(join(dir, 'docs/api.md'), '\nA line of the user\'s own, not committed.\n'),
    turn: (dir) => insertBefore(dir, 'src/click/utils.py', 'def make_str(', '# gate bench: a comment only\n'),
  },
  'click-break': {
    project: 'click', what: 'clean start, turn adds one failing test (tests/test_formatting.py)',
    turn: (dir) => appendFileSync(join(dir, 'tests/test_formatting.py'), '\n\ndef test_gate_bench_wrong_expectation() -> None:\n    assert click.style("x", bold=True) == "x"\n'),
  },
};

function wheelhouse(name) {
  const dir = join(work, `wheels-${name}`);
  if (!existsSync(join(dir, '.done'))) {
    mkdirSync(dir, { recursive: true });
    run('python3', ['-m', 'pip', 'download', '-q', '-d', dir, ...PROJECTS[name].wheels]);
    writeFileSync(join(dir, '.done'), '');
  }
  return dir;
}

function prepare(name, dir, build, red) {
  const p = PROJECTS[name];
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (p.make) p.make(dir);
  else run('git', [`--git-dir=${join(mirrors, p.mirror, 'repo')}`, `--work-tree=${dir}`, 'checkout', '-f', p.commit, '--', '.']);
  run('git', ['init', '-q'], { cwd: dir });
  run('git', ['add', '-A'], { cwd: dir });
  run('git', ['commit', '-qm', `upstream ${name} ${p.commit ?? '(made here)'}`], { cwd: dir });
  if (p.patch) { const msg = p.patch(dir); run('git', ['commit', '-qam', msg], { cwd: dir }); }
  if (red) { red(dir); run('git', ['commit', '-qam', 'bench: a little red'], { cwd: dir }); }
  if (p.install) {
    const wheels = wheelhouse(name);
    run('python3', ['-m', 'venv', '.venv'], { cwd: dir });
    const offline = ['install', '-q', '--no-index', '--find-links', wheels];
    run(join(dir, '.venv/bin/pip'), [...offline, ...p.install], { cwd: dir });
    run(join(dir, '.venv/bin/pip'), [...offline, '--no-build-isolation', '--no-deps', '-e', '.'], { cwd: dir });
  }
  // gate on PATH as `gate`, the way a user installs it (init checks the hook command runs)
  const bin = join(work, `bin-${build}`);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gate'), `#!/bin/sh\nexec node ${join(builds[build], 'bin/gate.cjs')} "$@"\n`, { mode: 0o755 });
  const env = { ...baseEnv, PATH: `${bin}:${baseEnv.PATH}`, CLAUDE_PROJECT_DIR: dir };
  const t0 = Date.now();
  const init = run('gate', ['init', '--yes'], { cwd: dir, env, allowFail: true });
  const initS = (Date.now() - t0) / 1000;
  run('git', ['add', 'gate.config.json', '.claude/settings.json'], { cwd: dir });
  run('git', ['commit', '-qm', 'gate init'], { cwd: dir });
  return { env, initS, initExit: init.status };
}

function hook(dir, env, event) {
  const payload = JSON.stringify({ session_id: 's1', transcript_path: '/nonexistent/transcript.jsonl', cwd: dir, hook_event_name: event, stop_hook_active: false, ...(event === 'UserPromptSubmit' ? { prompt: 'x' } : {}) });
  const t0 = process.hrtime.bigint();
  const r = run('gate', ['run'], { cwd: dir, env, input: payload, allowFail: true });
  return { exit: r.status, ms: Number((process.hrtime.bigint() - t0) / 1000000n), stdout: r.stdout, stderr: r.stderr };
}

const rows = [];
for (const [id, sc] of Object.entries(SCENARIOS)) {
  if (only && !only.includes(id)) continue;
  for (const build of Object.keys(builds)) {
    const dir = join(work, `${id}-${build}${turnSeconds ? `-t${turnSeconds}` : ''}`);
    const { env, initS } = prepare(sc.project, dir, build, sc.red);
    if (sc.checkAll) run('gate', ['check', '--all'], { cwd: dir, env, allowFail: true });
    sc.before?.(dir);
    const prompt = hook(dir, env, 'UserPromptSubmit');
    sc.turn(dir);
    // The agent's turn takes time: the prompt hook's background evidence gathering (b4988cd on) works meanwhile.
    if (turnSeconds > 0) run('sleep', [String(turnSeconds)]);
    const stop = hook(dir, env, 'Stop');
    const log = run('gate', ['log', '-n', '1'], { cwd: dir, env, allowFail: true }).stdout;
    const report = stop.exit === 2 ? stop.stderr : stop.stdout;
    const row = { id, build, turnSeconds, dir, initS, promptMs: prompt.ms, promptExit: prompt.exit, exit: stop.exit, stopS: stop.ms / 1000, head: report.split('\n').slice(0, 6).join('\n'), reportBytes: Buffer.byteLength(report), log };
    if (suite && PROJECTS[sc.project].install) {
      const t0 = Date.now();
      run(join(dir, '.venv/bin/pytest'), ['-q', '-p', 'no:cacheprovider'], { cwd: dir, allowFail: true });
      row.suiteS = (Date.now() - t0) / 1000;
    }
    rows.push(row);
    appendFileSync(join(work, 'results.jsonl'), `${JSON.stringify(row)}\n`);
    writeFileSync(join(dir + '.report.txt'), `exit ${stop.exit}, ${row.stopS}s\n--- stderr\n${stop.stderr}\n--- stdout\n${stop.stdout}\n--- gate log -n 1\n${log}`);
    console.log(`${id} | ${build} | exit ${stop.exit} ${stop.exit === 2 ? 'BLOCKED' : 'allowed'} | stop ${row.stopS}s | ${row.head.split('\n')[0].slice(0, 160)}`);
  }
}
