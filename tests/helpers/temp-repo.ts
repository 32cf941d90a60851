import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

export interface TempRepo {
  dir: string;
  home: string;
  env: Record<string, string>;
  git(...args: string[]): string;
  write(path: string, content: string): void;
  remove(path: string): void;
  commit(message: string): void;
  cleanup(): void;
}

/**
 * A real git repository in a temp dir with a hermetic git config (no system or user config is
 * read), its own HOME, and optionally the project's node_modules linked in so vitest and tsc run.
 */
export function makeRepo(files: Record<string, string>, options: { commit?: boolean; nodeModules?: boolean | 'with-gate'; git?: boolean; name?: string } = {}): TempRepo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gate-test-')));
  const dir = join(base, options.name ?? 'repo');
  const home = join(base, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  if (resolve(dir) === resolve(process.cwd())) throw new Error('refusing to use the process cwd as a test repo');
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Gate Test\n\temail = gate@example.test\n[init]\n\tdefaultBranch = main\n');
  const env = hermeticEnv(home);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  if (options.git !== false) git('init', '-q');
  for (const [path, content] of Object.entries(files)) write(path, content);
  if (options.nodeModules === 'with-gate') linkInstalledGate(dir);
  else if (options.nodeModules) symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'));
  const repo: TempRepo = {
    dir,
    home,
    env,
    git,
    write,
    remove: (path) => unlinkSync(join(dir, path)),
    commit: (message) => {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
  if (options.commit !== false && options.git !== false) repo.commit('initial');
  return repo;
}

/**
 * A copy of a repository made by makeRepo — its work tree, its git directory with gate's state in
 * it, and its HOME — in a temp dir of its own: several tests can start from one state that cost a
 * real runner's run to reach.
 */
export function copyRepo(source: TempRepo): TempRepo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gate-test-')));
  const sourceBase = dirname(source.dir);
  cpSync(sourceBase, base, { recursive: true, verbatimSymlinks: true });
  const dir = join(base, relative(sourceBase, source.dir));
  const home = join(base, 'home');
  const env = { ...source.env, ...hermeticEnv(home) };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  return {
    dir,
    home,
    env,
    git,
    write: (path, content) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    remove: (path) => unlinkSync(join(dir, path)),
    commit: (message) => {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * node_modules as `npm i -D stopgate` leaves it: the project's own dependencies, plus stopgate
 * itself and its `gate` bin — all symlinks into this checkout, so the built dist/ is what runs.
 */
function linkInstalledGate(dir: string): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const name of readdirSync(join(PROJECT_ROOT, 'node_modules'))) {
    if (name !== '.bin') symlinkSync(join(PROJECT_ROOT, 'node_modules', name), join(modules, name));
  }
  for (const name of readdirSync(join(PROJECT_ROOT, 'node_modules', '.bin'))) {
    symlinkSync(join(PROJECT_ROOT, 'node_modules', '.bin', name), join(modules, '.bin', name));
  }
  symlinkSync(PROJECT_ROOT, join(modules, 'stopgate'));
  symlinkSync(join(PROJECT_ROOT, 'bin', 'gate.cjs'), join(modules, '.bin', 'gate'));
}

/** Only what a hook would need: no inherited VITEST_*, CLAUDE_*, GIT_* or user config. */
export function hermeticEnv(home: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    TMPDIR: tmpdir(),
    // The prompt hook's background gathering of the start's failures is a head start only (the stop
    // checks the start itself when it is not done): off here, so that no test's machine load or
    // verdict depends on its timing; tests/e2e/start-evidence.test.ts turns it on.
    GATE_EVIDENCE: '0',
    // Likewise the checks a post-edit hook starts ahead of the stop: tests/e2e/checks-ahead.test.ts.
    GATE_AHEAD: '0',
  };
}
