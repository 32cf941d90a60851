import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { pyrightFilter } from '../../src/filters/pyright.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import { readRepoFacts } from '../../src/init/repo-facts.js';
import { runBin, stop } from '../helpers/run-bin.js';
import { requireTools } from '../helpers/fast-tier.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

// Issue 30 point 3: a project configured for pyright gets a pyright typecheck gate, run by the real tool.
const fixture = (name: string) => readFileSync(join(PROJECT_ROOT, 'tests/fixtures/outputs/pyright', name), 'utf8');
const repos: TempRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup();
});

function repo(files: Record<string, string>): TempRepo {
  const made = makeRepo(files, { nodeModules: 'with-gate' });
  repos.push(made);
  return made;
}

const MODELS = 'def add(a: int, b: int) -> int:\n    return a + b\n';
const USES = 'from app.models import add\n\ntotal: int = add(1, 2)\n';
const PYPROJECT = '[project]\nname = "app"\nversion = "0"\n\n[tool.pyright]\ninclude = ["app"]\ntypeCheckingMode = "strict"\n';

describe('pyright filter (captured outputs)', () => {
  it('an item per error with its continuation lines; rules in the ids; warnings and informations left out', () => {
    const filtered = pyrightFilter(fixture('errors.txt'));
    expect(filtered.items).toHaveLength(5);
    expect(filtered.items[0]).toEqual([
      '/tmp/cap/pyright/app/app/models.py:11:31 - error: Argument of type "str" cannot be assigned to parameter "age" of type "int" in function "__init__"',
      '  "str" is not assignable to "int" (reportArgumentType)',
    ]);
    expect(filtered.summary).toEqual(['5 errors, 1 warning, 1 information']);
    expect(filtered.failures.map((failure) => `${failure.file}:${failure.line} ${failure.id.split(' ')[1]}`)).toEqual([
      '/tmp/cap/pyright/app/app/models.py:11 reportArgumentType:',
      '/tmp/cap/pyright/app/app/models.py:15 reportOptionalMemberAccess:',
      '/tmp/cap/pyright/app/app/service.py:2 reportMissingImports:',
      '/tmp/cap/pyright/app/app/service.py:7 reportReturnType:',
      '/tmp/cap/pyright/app/app/service.py:10 reportArgumentType:',
    ]);
    expect(filtered.failures[3]?.message).toBe('Type "int" is not assignable to return type "str" "int" is not assignable to "str"');
    expect(filtered.items.flat().join('\n')).not.toMatch(/warning|information/);
  });

  it('basedpyright: the same errors, its totals kept', () => {
    const based = pyrightFilter(fixture('basedpyright-errors.txt'));
    expect(based.failures.map((failure) => failure.id)).toEqual(pyrightFilter(fixture('errors.txt')).failures.map((failure) => failure.id));
    expect(based.summary).toEqual(['5 errors, 3 warnings, 1 note']);
  });

  it('a syntax error has no rule; a config that cannot be parsed is kept whole', () => {
    const syntax = pyrightFilter(fixture('syntax-error.txt'));
    expect(syntax.failures[0]?.id).toBe('/tmp/cap/pyright/syn/pkg/a.py error: "(" was not closed');
    expect(syntax.failures).toHaveLength(7);
    const bad = pyrightFilter(fixture('bad-config.txt'));
    expect(bad.items.flat().join('\n')).toContain('Config file "/tmp/cap/pyright/bad/pyrightconfig.json" could not be parsed.');
  });
});

describe('pyright detection', () => {
  it.each<[string, Record<string, string>, string[][]]>([
    ['[tool.pyright]', { 'pyproject.toml': PYPROJECT }, [['pyright', 'typecheck']]],
    ['pyrightconfig.json', { 'pyrightconfig.json': '{ "strict": ["app"] }\n' }, [['pyright', 'typecheck']]],
    ['[tool.basedpyright]', { 'pyproject.toml': '[tool.basedpyright]\ntypeCheckingMode = "recommended"\n' }, [['basedpyright', 'typecheck']]],
    ['mypy and pyright, each configured', { 'pyproject.toml': `${PYPROJECT}\n[tool.mypy]\nstrict = true\n` }, [['mypy', 'typecheck'], ['pyright', 'typecheck-pyright']]],
  ])('%s', (_name, files, expected) => {
    const made = repo(files);
    const detection = detectPresets(readRepoFacts(made.dir), loadPresets());
    expect(detection.presets.map((entry) => [entry.preset, entry.gateName])).toEqual(expected);
  });
});

describe('pyright gate (real pyright from node_modules/.bin)', () => {
  it('init proposes it, and a stop after a type error is refused with pyright\'s error', () => {
    const project = repo({ 'pyproject.toml': PYPROJECT, 'app/__init__.py': '', 'app/models.py': MODELS, 'app/uses.py': USES, '.gitignore': 'node_modules\n' });
    const init = runBin(['init', '--yes', '--no-check'], { cwd: project.dir, env: project.env });
    expect(init.code, init.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(project.dir, 'gate.config.json'), 'utf8')) as { gates: Array<{ name: string; preset?: string }> };
    expect(config.gates).toContainEqual(expect.objectContaining({ name: 'typecheck', preset: 'pyright' }));
    project.commit('gate');
    project.write('app/models.py', 'def add(a: int, b: int) -> str:\n    return str(a + b)\n');
    const refused = stop(project);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('app/uses.py:3:14 - error: Type "str" is not assignable to declared type "int"');
    expect(refused.stderr).toContain('(reportAssignmentType)');
    project.write('app/models.py', MODELS);
    const allowed = stop(project);
    expect(allowed.code, allowed.stderr).toBe(0);
    // An error the turn did not cause: pyright's absolute paths in the baseline copy are mapped back, so it is told apart.
    project.write('app/old.py', 'x: int = "s"\n');
    project.commit('an old error');
    // Code, not a comment: a comment-only change would run no type checker.
    project.write('app/uses.py', `${USES}more: int = 2\n`);
    const old = stop(project, 'session-2');
    expect(old.code, old.stderr).toBe(0);
  });
});

describe('pyright installed nowhere (issue 38 point 8: click)', () => {
  it('init proposes no pyright gate, which could never start, and says what to install', () => {
    const project = repo({ 'pyproject.toml': PYPROJECT, 'app/__init__.py': '', 'app/models.py': MODELS, '.gitignore': 'node_modules\n' });
    rmSync(join(project.dir, 'node_modules', '.bin', 'pyright'));
    // npx puts this checkout's node_modules/.bin, which has pyright, on the test's PATH.
    project.env = { ...project.env, PATH: (project.env['PATH'] ?? '').split(':').filter((dir) => !dir.endsWith('node_modules/.bin')).join(':') };
    const init = runBin(['init', '--dry-run'], { cwd: project.dir, env: project.env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('+  "gates": []\n');
    expect(init.stdout).toContain('Note: no typecheck gate: preset pyright fits (pyproject.toml has [tool.pyright]), but pyright is not installed (not in node_modules/.bin or PATH)');
    expect(init.stdout).toContain("Install it: `pip install pyright` in the project's virtual environment (python3 -m venv .venv); then add { \"name\": \"typecheck\", \"preset\": \"pyright\" } to the config.");
  });
});

describe('pyright\'s real paths and a symlinked temp folder', () => {
  it('an old error is told apart when the baseline copy sits under a symlink (macOS: /var → /private/var)', () => {
    const project = repo({ 'pyproject.toml': PYPROJECT, 'app/__init__.py': '', 'app/models.py': MODELS, 'app/uses.py': USES, 'app/old.py': 'x: int = "s"\n', '.gitignore': 'node_modules\n' });
    // pyright prints real paths: the copy's, not the symlinked TMPDIR it was made under.
    mkdirSync(join(project.home, 'real-tmp'));
    symlinkSync(join(project.home, 'real-tmp'), join(project.home, 'tmp'));
    project.env = { ...project.env, TMPDIR: join(project.home, 'tmp') };
    project.write('gate.config.json', '{ "gates": [{ "name": "typecheck", "preset": "pyright" }] }\n');
    project.commit('an old error');
    // Code, not a comment: a comment-only change would run no type checker.
    project.write('app/uses.py', `${USES}more: int = 2\n`);
    const result = stop(project);
    expect(result.code, result.stderr).toBe(0);
  });
});

describe.skipIf(!requireTools('basedpyright'))('basedpyright gate (real basedpyright, from scripts/install-tools.mjs)', () => {
  it('init proposes it for [tool.basedpyright], and a stop after a type error is refused with its error', () => {
    const project = repo({ 'pyproject.toml': '[project]\nname = "app"\nversion = "0"\n\n[tool.basedpyright]\ninclude = ["app"]\ntypeCheckingMode = "standard"\n', 'app/__init__.py': '', 'app/models.py': MODELS, 'app/uses.py': USES, '.gitignore': 'node_modules\n' });
    project.env = { ...project.env, PATH: toolEnv(project.env)['PATH'] ?? '' };
    expect(runBin(['init', '--yes', '--no-check'], { cwd: project.dir, env: project.env }).code).toBe(0);
    expect(JSON.parse(readFileSync(join(project.dir, 'gate.config.json'), 'utf8')).gates).toContainEqual({ name: 'typecheck', preset: 'basedpyright' });
    project.commit('gate');
    project.write('app/models.py', 'def add(a: int, b: int) -> str:\n    return str(a + b)\n');
    const refused = stop(project);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('$ basedpyright');
    expect(refused.stderr).toContain('app/uses.py:3:14 - error: Type "str" is not assignable to declared type "int"');
  });
});

describe('pyright on a change inside the bodies of typed functions', () => {
  const statusOf = (project: TempRepo) => (JSON.parse(runBin(['status', '--json'], { cwd: project.dir, env: project.env }).stdout) as { gates: Array<{ name: string; reason: string; command?: string }> }).gates[0];
  const LOOSE = 'def scale(a):\n    return a * 2\n';
  it('checks the changed file alone, blocks on an error there, and checks the whole project for a change a caller may read', () => {
    const project = repo({ 'pyproject.toml': PYPROJECT, 'app/__init__.py': '', 'app/models.py': `${MODELS}\n\n${LOOSE}`, 'app/uses.py': USES, 'app/old.py': 'x: int = "s"\n', '.gitignore': 'node_modules\n' });
    project.write('gate.config.json', '{ "gates": [{ "name": "typecheck", "preset": "pyright" }] }\n');
    project.commit('an old error elsewhere');
    const log = join(project.dir, '.git', 'gate', 'logs', 'typecheck.log');
    project.write('app/models.py', `${MODELS.replace('return a + b', 'return b + a')}\n\n${LOOSE}`);
    const narrowed = statusOf(project);
    expect(narrowed?.reason).toBe('app/models.py changed; only app/models.py: changed inside bodies of functions with declared types, which no other module\'s check reads');
    expect(narrowed?.command).toMatch(/pyright app\/models\.py$/);
    expect(stop(project).code).toBe(0);
    expect(readFileSync(log, 'utf8')).not.toContain('old.py');
    // An error inside the body: the file's own check finds it.
    project.write('app/models.py', `${MODELS.replace('return a + b', 'return str(a + b)')}\n\n${LOOSE}`);
    const refused = stop(project);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('app/models.py:2:12 - error: Type "str" is not assignable to return type "int"');
    // No return annotation: pyright infers scale()'s type from its body, which other modules read.
    project.write('app/models.py', `${MODELS}\n\n${LOOSE.replace('a * 2', 'a * 3')}`);
    expect(statusOf(project)?.reason).toBe('app/models.py changed');
    const whole = stop(project);
    expect(whole.code, whole.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('old.py');
  });
});
