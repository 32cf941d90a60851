// gate as a user gets it: `npm pack` of this repository installed into a small TypeScript project
// with vitest, then `npx gate init` in a fresh git repository. The npm install is done once into a
// template; each scenario copies it (`cp -a`: node_modules/.bin links are relative and stay valid).
// Plain JavaScript so that scripts/demo.mjs can use it too; its types are in gate-project.d.mts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from './claude-cli.mjs';

export const VITEST_VERSION = '4.1.12';
export const TYPESCRIPT_VERSION = '5.9.3';

export const SUM_OK = 'export function sum(a: number, b: number): number {\n  return a + b;\n}\n';
export const SUM_BROKEN = 'export function sum(a: number, b: number): number {\n  return a - b;\n}\n';
export const SUM_TEST = `import { describe, expect, it } from 'vitest';
import { sum } from './sum.js';

describe('sum', () => {
  it('adds two numbers', () => {
    expect(sum(1, 2)).toBe(3);
  });
});
`;
/** The line of SUM_TEST whose assertion fails when sum is broken. */
export const SUM_TEST_ASSERTION_LINE = 6;

/** The project every scenario starts from, before `npm install` adds node_modules and the lockfile. */
const TEMPLATE_FILES = {
  '.gitignore': 'node_modules\n',
  // skipLibCheck, as `tsc --init` writes it: without it every stop's tsc checks vitest's 10,000 lines
  // of declarations (≈ 9 of its 14 s under CI's load), the sum.ts of the scenarios next to nothing.
  // lib ES2022 without the DOM, as a Node project's tsconfig sets it (@tsconfig/node*): the target's
  // default lib parses the DOM's 40,000 lines at every run (tsc 1.29 → 0.84 s, 108 files, not 114).
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, target: 'ES2022', lib: ['ES2022'], types: [], skipLibCheck: true }, include: ['src'] }, null, 2)}\n`,
  'README.md': '# fixture\n\nAdds numbers.\n',
  'docs/guide.md': '# Guide\n\nCall `sum(a, b)`.\n',
  'src/sum.ts': SUM_OK,
  'src/sum.test.ts': SUM_TEST,
};

/**
 * A shell command for the agent's Bash tool that writes `text` to `path` (a quoted heredoc: no expansion).
 * @param {string} path @param {string} text
 */
export function writeFileCommand(path, text) {
  if (text.includes('\nEOF\n') || !text.endsWith('\n')) throw new Error('writeFileCommand: text must end with a newline and hold no EOF line');
  return `cat > ${path} <<'EOF'\n${text}EOF`;
}

/** @param {string} dir @returns {number} the newest mtime of any file under dir */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Throws when dist/ is missing; returns a warning when src/ changed after the last build (the
 * tarball then holds the older build). Never builds itself: the build empties dist/ first, which
 * would break the other test tiers running at the same time.
 * @returns {string | undefined}
 */
export function checkBuild() {
  const built = ['dist/hook.cjs', 'dist/cli.js'].map((file) => join(PROJECT_ROOT, file));
  const missing = built.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`gate is not built (${missing.join(', ')} missing): run npm run build`);
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const changed = ['src', 'presets', 'templates'].filter((dir) => newestMtime(join(PROJECT_ROOT, dir)) > builtAt);
  return changed.length > 0 ? `${changed.join(', ')} changed after the last build: the packed gate is the older build (run npm run build)` : undefined;
}

/**
 * @param {string} command @param {string[]} args @param {string} cwd
 * @param {NodeJS.ProcessEnv} [env] @returns {string}
 */
function run(command, args, cwd, env = process.env) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} in ${cwd} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** npm settings for every npm/npx call here: no update check, audit or funding requests. */
const QUIET_NPM = { npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };

/**
 * `npm pack` of this repository (as built) into destDir.
 * @param {string} destDir @returns {string} the tarball's path
 */
export function packGate(destDir) {
  // --ignore-scripts: pack the build the tests were started with (prepack would rebuild dist/ under
  // the other tiers' feet); tests/e2e/pack.test.ts packs a fresh clone with its scripts.
  const out = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destDir], PROJECT_ROOT, { ...process.env, ...QUIET_NPM });
  const [packed] = JSON.parse(out);
  if (!packed || typeof packed.filename !== 'string') throw new Error(`npm pack printed no filename:\n${out}`);
  return join(destDir, packed.filename);
}

/**
 * Packs gate and installs the template project (vitest, typescript and the tarball as
 * devDependencies, from the npm cache when it has them) into a new folder under `parent`.
 * @param {string} [parent] @returns {import('./gate-project.d.mts').Template}
 */
export function prepareTemplate(parent = tmpdir()) {
  const base = realpathSync(mkdtempSync(join(parent, 'stopgate-template-')));
  const started = performance.now();
  const tarball = packGate(base);
  const packed = performance.now();
  const dir = join(base, 'project');
  const files = {
    ...TEMPLATE_FILES,
    'package.json': `${JSON.stringify({
      name: 'fixture',
      private: true,
      type: 'module',
      scripts: { test: 'vitest run' },
      devDependencies: { stopgate: `file:${tarball}`, typescript: TYPESCRIPT_VERSION, vitest: VITEST_VERSION },
    }, null, 2)}\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir, { ...process.env, ...QUIET_NPM });
  const gateBin = join(dir, 'node_modules', '.bin', 'gate');
  if (!existsSync(gateBin)) throw new Error(`npm install left no ${gateBin}`);
  return { base, dir, tarball, packMs: Math.round(packed - started), installMs: Math.round(performance.now() - packed) };
}

/**
 * A fresh copy of the template in a new temp dir, as a git repository with one commit, with a
 * hermetic git config and its own HOME. Run `project.gate('init', '--yes')` next.
 * @param {string} templateDir @param {{ viaNpx?: boolean }} [options]
 * @returns {import('./gate-project.d.mts').GateProject}
 */
export function makeProject(templateDir, options = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'stopgate-claude-')));
  const repo = join(root, 'repo');
  const home = join(root, 'home');
  const configDir = join(root, 'claude-config');
  mkdirSync(home);
  mkdirSync(configDir);
  const gitconfig = join(home, '.gitconfig');
  writeFileSync(gitconfig, '[user]\n\tname = Gate Test\n\temail = gate@example.test\n[init]\n\tdefaultBranch = main\n');
  execFileSync('cp', ['-a', templateDir, repo]);
  /** Passed to the CLI too, so its hooks (and the agent's git commands) see the same config. */
  const env = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitconfig,
    ...QUIET_NPM,
    npm_config_offline: 'true', // `npx gate` must use the local install, never fetch a package named gate
    // No background gathering of the start's failures at each prompt: with a mock model a turn takes
    // a second, so each would be ended at once, after loading the machine the other tests share
    // (tests/e2e/start-evidence.test.ts covers it).
    GATE_EVIDENCE: '0',
    // Nor checks ahead of the stop after each edit, for the same reason (tests/e2e/checks-ahead.test.ts).
    GATE_AHEAD: '0',
  };
  const fullEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...env };
  /** @param {string[]} args */
  const git = (...args) => run('git', args, repo, fullEnv);
  /** @type {import('./gate-project.d.mts').GateProject} */
  const project = {
    root,
    repo,
    home,
    configDir,
    env,
    git,
    write(path, text) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    },
    read: (path) => readFileSync(join(repo, path), 'utf8'),
    exists: (path) => existsSync(join(repo, path)),
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
    },
    gate(...args) {
      const started = performance.now();
      // The installed bin, as npx would start it (the same path, so gate sees the same install): npx
      // itself costs 0.5 s and 0.6 s of CPU a call, and these calls are set-up; e2e pack and
      // new-user run `npx gate` from the tarball. `viaNpx` (the demo) shows the user's command.
      const [file, fileArgs] = options.viaNpx ? ['npx', ['gate', ...args]] : [join(repo, 'node_modules', '.bin', 'gate'), args];
      const result = spawnSync(file, fileArgs, { cwd: repo, env: fullEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      if (result.error) throw result.error;
      return { code: result.status, stdout: result.stdout, stderr: result.stderr, durationMs: Math.round(performance.now() - started) };
    },
    status: () => git('status', '--porcelain', '--untracked-files=all').split('\n').filter((line) => line !== ''),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  git('init', '-q');
  project.commit('initial');
  return project;
}

/**
 * Processes (not zombies) whose working directory is inside `dir`: what a gate left running.
 * @param {string} dir @returns {string[]}
 */
export function processesIn(dir) {
  /** @type {string[]} */
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if ((cwd === dir || cwd.startsWith(`${dir}/`)) && !/^\d+ \(.*\) Z/.test(state)) {
        found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
      }
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}
