import { readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { canMakeVenvs, makeVenv, venvPip } from '../helpers/python-venv.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 37: a turn is judged against where it really started — the whole tree as the prompt found
// it (dirty or clean, every file the commit holds) and the environment the gates ran in. Each case
// here gave a wrong verdict when the start was "HEAD, copied with git archive, in whatever
// environment is installed now".

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const TEST_HEAD = "import assert from 'node:assert/strict';\nimport { readFileSync } from 'node:fs';\nimport { test } from 'node:test';\n";
const NODE_TEST = `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '--test', '--test-reporter=spec'], filter: 'node-test', on: ['**'] }] })}\n`;

/** A node:test project whose `test/old.test.js` fails from the start. */
function nodeProject(files: Record<string, string> = {}, name?: string): TempRepo {
  return makeRepo(
    {
      'gate.config.json': NODE_TEST,
      'package.json': '{ "type": "module" }\n',
      'src/index.js': 'export const answer = 41;\n',
      'test/old.test.js': `${TEST_HEAD}import { answer } from '../src/index.js';\ntest('knows the answer', () => assert.equal(answer, 42));\n`,
      ...files,
    },
    name === undefined ? {} : { name },
  );
}

describe('a dirty start', () => {
  it('the user\'s uncommitted work that fails a test, then a harmless turn: the old failure does not block', () => {
    repo = nodeProject();
    // Uncommitted when the prompt arrives, and red: not this turn's doing.
    repo.write('src/shout.js', "export const shout = (text) => text.toLowerCase();\n");
    repo.write('test/shout.test.js', `${TEST_HEAD}import { shout } from '../src/shout.js';\ntest('shouts', () => assert.equal(shout('hi'), 'HI'));\n`);
    repo.write('README.md', 'work in progress\n');
    promptStart(repo);
    repo.write('src/index.js', '// The answer, as the tests expect it one day.\nexport const answer = 41;\n');
    const allowed = stop(repo);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('only with failures from before this turn');
    expect(lastStop(repo)?.gates[0]).toMatchObject({ name: 'test', status: 'failed', preExisting: 2 });
  });

  it('a dirty start and a turn that breaks a test: the new failure blocks, the old one is named old', () => {
    repo = nodeProject({ 'src/sum.js': 'export const sum = (a, b) => a + b;\n', 'test/sum.test.js': `${TEST_HEAD}import { sum } from '../src/sum.js';\ntest('adds', () => assert.equal(sum(1, 2), 3));\n` });
    repo.write('docs/notes.md', 'an uncommitted note\n');
    promptStart(repo);
    repo.write('src/sum.js', 'export const sum = (a, b) => a - b;\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('adds');
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): test/old.test.js > knows the answer.');
  });
});

describe('a file the commit holds that git archive leaves out', () => {
  it('a fixture marked export-ignore is in the copy: a test the turn breaks that reads it is new', () => {
    repo = nodeProject({
      '.gitattributes': 'test/fixtures/** export-ignore\n',
      'test/fixtures/expected.json': '{ "greeting": "hello" }\n',
      'src/greet.js': "export const greet = () => 'hello';\n",
      'test/greet.test.js': `${TEST_HEAD}import { greet } from '../src/greet.js';\nconst expected = () => JSON.parse(readFileSync(new URL('./fixtures/expected.json', import.meta.url), 'utf8')).greeting;\ntest('greets', () => assert.equal(greet(), expected()));\n`,
    });
    promptStart(repo);
    repo.write('src/greet.js', "export const greet = () => 'bye';\n");
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('greets');
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): test/old.test.js > knows the answer.');
  });
});

describe('a gate whose output names no failure', () => {
  const script = (message: string) => `process.stderr.write(${JSON.stringify(message)} + ' (after ' + (1 + Math.random()).toFixed(3) + 's)\\n');\nprocess.exit(1);\n`;
  const project = () =>
    makeRepo({
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'service', run: ['node', 'check.mjs'], on: ['**'] }] })}\n`,
      'check.mjs': script('service check: database unreachable at 127.0.0.1:5432'),
      'src/app.js': 'export const app = 1;\n',
    });

  it('red the same way at the start (gate check --all recorded it) and now: not blocking', () => {
    repo = project();
    expect(runBin(['check', '--all'], { cwd: repo.dir, env: repo.env }).code).toBe(1);
    promptStart(repo);
    repo.write('src/app.js', 'export const app = 2;\n');
    const allowed = stop(repo);
    expect(allowed.code).toBe(0);
    expect(lastStop(repo)?.gates[0]).toMatchObject({ name: 'service', status: 'failed', preExisting: 1 });
  });

  it('red the same way, known from a copy of the start: not blocking; red another way: blocks', () => {
    repo = project();
    promptStart(repo);
    repo.write('src/app.js', 'export const app = 2;\n');
    expect(stop(repo).code).toBe(0);
    promptStart(repo, 'session-2');
    repo.write('check.mjs', script('service check: migrations missing'));
    const blocked = stop(repo, 'session-2');
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('migrations missing');
  });
});

describe('two sessions on one tree', () => {
  /** Claude Code's PostToolUse for an Edit, as init installs it. */
  const edited = (r: TempRepo, session: string, path: string, content: string) => {
    r.write(path, content);
    const payload = JSON.stringify({ session_id: session, cwd: r.dir, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(r.dir, path), content } });
    expect(runBin(['run'], { cwd: r.dir, env: { ...r.env, CLAUDE_PROJECT_DIR: r.dir }, input: payload }).code).toBe(0);
  };

  it("session B's harmless edit is blocked by session A's breakage: the report names the file B never edited", () => {
    repo = nodeProject({ 'src/sum.js': 'export const sum = (a, b) => a + b;\n', 'test/sum.test.js': `${TEST_HEAD}import { sum } from '../src/sum.js';\ntest('adds', () => assert.equal(sum(1, 2), 3));\n` });
    promptStart(repo, 'session-a');
    promptStart(repo, 'session-b');
    edited(repo, 'session-a', 'src/sum.js', 'export const sum = (a, b) => a - b;\n');
    edited(repo, 'session-b', 'src/notes.js', 'export const notes = [];\n');
    const blocked = stop(repo, 'session-b');
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('## changed during this turn, not by your edits');
    expect(blocked.stderr).toMatch(/leave them to whoever is editing them and tell the user:\n {0,2}src\/sum\.js\n/);
    expect(blocked.stderr).not.toMatch(/not by your edits[\s\S]*src\/notes\.js/);
  });
});

describe('the copy-leak guard', () => {
  it('a sibling folder whose name starts with the repository\'s is not the work tree: the copy is trusted', () => {
    repo = nodeProject({}, 'app');
    repo.write('config/paths.json', `${JSON.stringify({ counter: `${repo.dir}-counter/data` })}\n`);
    repo.commit('paths');
    promptStart(repo);
    repo.write('src/extra.js', 'export const extra = 1;\n');
    const allowed = stop(repo);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).not.toContain('Could not tell');
    expect(lastStop(repo)?.gates[0]).toMatchObject({ status: 'failed', preExisting: 1 });
  });
});

describe('gate\'s own files', () => {
  it('committed as they were after `gate check --all` recorded a pass: the first stop with no prompt before it runs nothing', () => {
    repo = makeRepo({ 'package.json': '{ "type": "module" }\n', 'src/index.js': 'export const answer = 42;\n', 'test/answer.test.js': `${TEST_HEAD}import { answer } from '../src/index.js';\ntest('knows the answer', () => assert.equal(answer, 42));\n` });
    repo.write('gate.config.json', NODE_TEST);
    repo.write('.claude/settings.json', `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx gate run' }] }] } }, null, 2)}\n`);
    expect(runBin(['check', '--all'], { cwd: repo.dir, env: repo.env }).code).toBe(0);
    repo.commit('add gate');
    const allowed = stop(repo);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout + allowed.stderr).not.toContain('gate.config.json');
    expect(lastStop(repo)).toMatchObject({ reason: 'no change', gates: [] });
  });
});

describe.skipIf(!canMakeVenvs())('an environment the turn changed', () => {
  /** A one-module distribution `greeting` at `version`, whose hello() says `word`: pip builds a real wheel of it. */
  const distribution = (r: TempRepo, version: string, word: string) => {
    const dir = `dist-src/greeting-${version}`;
    r.write(`${dir}/pyproject.toml`, `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "greeting"\nversion = "${version}"\n\n[tool.setuptools]\npy-modules = ["greeting"]\n`);
    r.write(`${dir}/greeting.py`, `def hello():\n    return ${JSON.stringify(word)}\n`);
    return join(r.dir, dir);
  };
  const pip = (venv: string, cwd: string, target: string) => venvPip(venv, cwd, '--no-build-isolation', '--no-deps', '--upgrade', target);

  it('pip upgrades a package in the turn and tests break: the copy shares the upgraded venv, so no failure is called old', () => {
    repo = makeRepo({
      '.gitignore': '.venv/\ndist-src/\n*.egg-info/\nbuild/\n__pycache__/\n',
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'pytest' }] })}\n`,
      'requirements.txt': 'greeting==1.0\n',
      'tests/test_app.py': 'from greeting import hello\n\n\ndef test_hello():\n    assert hello() == "hello"\n\n\ndef test_old():\n    assert 1 == 2\n',
    });
    const venv = join(repo.dir, '.venv');
    const bin = makeVenv(venv, ['pytest==9.1.1', 'setuptools==84.0.0']);
    pip(venv, repo.dir, distribution(repo, '1.0', 'hello'));
    const env = { ...repo.env, PATH: `${bin}${delimiter}${repo.env['PATH']}` };
    const project = { dir: repo.dir, env };
    promptStart(project);
    // The turn: a new version in the requirements, installed into the shared venv.
    repo.write('requirements.txt', 'greeting==2.0\n');
    pip(venv, repo.dir, distribution(repo, '2.0', 'HELLO'));
    expect(readdirSync(join(venv, 'lib', readdirSync(join(venv, 'lib'))[0] ?? '', 'site-packages'))).toContain('greeting-2.0.dist-info');
    const blocked = stop(project);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('test_hello');
    expect(blocked.stderr).toContain('This turn changed the environment the gates run in (.venv (installed Python packages)): no failure counts as from before it.');
    expect(blocked.stderr).not.toContain('Already failing before this turn');
  });
});
