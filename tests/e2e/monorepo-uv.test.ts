import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { dependentsOf, detectWorkspaceKind, readWorkspace } from '../../src/workspace/workspace-graph.js';
import { requireTools } from '../helpers/fast-tier.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

// Issue 30 point 4: a uv workspace ([tool.uv.workspace] members and exclude) is a workspace kind:
// a change in one member runs its gates and those of the members that depend on it, with real pytest.
const pytestReady = requireTools('pytest');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const member = (name: string, body: string, pythonpath: string[]) =>
  `[project]\nname = "${name}"\nversion = "0.1.0"\n${body}\n[tool.pytest.ini_options]\npythonpath = ${JSON.stringify(pythonpath)}\n`;

/**
 * Four members by glob: acme-core; acme-cli, which depends on it (`acme_core` in its dependencies and a
 * workspace source); acme-tool alone; examples/demo, excluded, which would depend on core too.
 */
function uvWorkspace(options: { configs?: boolean } = {}): TempRepo {
  const r = makeRepo(
    {
      '.gitignore': '__pycache__/\n.pytest_cache/\n',
      'pyproject.toml':
        '[project]\nname = "acme"\nversion = "0.1.0"\n\n[tool.uv.workspace]\nmembers = [\n    "packages/*",\n    "examples/*", # the examples\n]\nexclude = ["examples/demo"]\n\n[tool.uv.sources]\nacme-core = { workspace = true }\n',
      'uv.lock': 'version = 1\n',
      'packages/core/pyproject.toml': member('acme-core', '', ['.']),
      'packages/core/acme_core/__init__.py': 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n',
      'packages/core/tests/test_core.py': 'from acme_core import greet\n\n\ndef test_greet():\n    assert greet("Ada").startswith("Hello")\n',
      'packages/cli/pyproject.toml': member('acme-cli', 'dependencies = [\n    "acme_core>=0.1",\n]\n\n[tool.uv.sources]\nacme-core = { workspace = true }\n', ['.', '../core']),
      'packages/cli/acme_cli/__init__.py': 'from acme_core import greet\n\n\ndef welcome() -> str:\n    return greet("Ada")\n',
      'packages/cli/tests/test_cli.py': 'from acme_cli import welcome\n\n\ndef test_welcome():\n    assert welcome() == "Hello, Ada!"\n',
      'packages/tool/pyproject.toml': member('acme-tool', '', ['.']),
      'packages/tool/acme_tool/__init__.py': 'VERSION = "1"\n',
      'packages/tool/tests/test_tool.py': 'from acme_tool import VERSION\n\n\ndef test_version():\n    assert VERSION == "1"\n',
      'examples/demo/pyproject.toml': member('demo', 'dependencies = ["acme-core"]\n', ['.']),
      'examples/notes/README.md': 'no pyproject.toml: no member\n',
    },
    { commit: false, nodeModules: options.configs === false ? 'with-gate' : false },
  );
  if (options.configs === false) {
    r.write('.gitignore', '__pycache__/\n.pytest_cache/\nnode_modules\n');
    r.commit('initial');
    return r;
  }
  r.write('gate.config.json', json({ workspaces: 'uv', gates: [] }));
  for (const dir of ['packages/core', 'packages/cli', 'packages/tool']) r.write(`${dir}/gate.config.json`, json({ gates: [{ name: 'test', preset: 'pytest' }] }));
  r.commit('initial');
  r.env = { ...r.env, PATH: toolEnv(r.env)['PATH'] ?? '' };
  return r;
}

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const ranGates = (r: TempRepo) =>
  (readStopRecords(join(r.dir, '.git', 'gate')).at(-1)?.gates ?? [])
    .filter((gate) => gate.status !== 'cached')
    .map((gate) => gate.name)
    .sort();

describe('a uv workspace', () => {
  it('is detected and read: members by glob less exclude, names normalised, edges from dependencies and workspace sources', async () => {
    repo = uvWorkspace();
    expect(detectWorkspaceKind(repo.dir)).toBe('uv');
    const graph = await readWorkspace(repo.dir, 'auto');
    expect(graph.packages).toEqual([
      { dir: 'packages/cli', name: 'acme-cli', dependsOn: ['packages/core'] },
      { dir: 'packages/core', name: 'acme-core', dependsOn: [] },
      { dir: 'packages/tool', name: 'acme-tool', dependsOn: [] },
    ]);
    expect(dependentsOf(graph, ['packages/core'])).toEqual(['packages/cli']);
  });

  it('a dependency named only through [tool.uv.sources] is an edge too', async () => {
    repo = uvWorkspace();
    repo.write('packages/tool/pyproject.toml', member('acme-tool', '[tool.uv.sources]\n"acme.core" = { workspace = true }\n', ['.']));
    expect((await readWorkspace(repo.dir, 'uv')).packages.find((pkg) => pkg.dir === 'packages/tool')?.dependsOn).toEqual(['packages/core']);
  });
});

describe('gate init in a uv workspace', () => {
  it('writes a root config naming the workspace and a config per member with something to gate', () => {
    repo = uvWorkspace({ configs: false });
    const init = runBin(['init', '--yes', '--no-check'], { cwd: repo.dir, env: repo.env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('uv workspace with 3 members.');
    expect(JSON.parse(readFileSync(join(repo.dir, 'gate.config.json'), 'utf8'))).toMatchObject({ workspaces: 'uv' });
    for (const dir of ['packages/core', 'packages/cli', 'packages/tool']) {
      expect(JSON.parse(readFileSync(join(repo.dir, dir, 'gate.config.json'), 'utf8')), dir).toMatchObject({ gates: [{ name: 'test', preset: 'pytest' }] });
    }
    expect(existsSync(join(repo.dir, 'examples/demo/gate.config.json'))).toBe(false);
  });
});

describe.skipIf(!pytestReady)('a stop in a uv workspace, a pytest config per member', () => {
  it('a change in the independent member runs only its gate', () => {
    repo = uvWorkspace();
    promptStart(repo);
    repo.write('packages/tool/acme_tool/__init__.py', 'VERSION = "1"\nNAME = "tool"\n');
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ranGates(repo)).toEqual(['packages/tool:test']);
  });

  it('a change in core that breaks cli blocks, naming cli\'s failing test; tool never runs', () => {
    repo = uvWorkspace();
    promptStart(repo);
    repo.write('packages/core/acme_core/__init__.py', 'def greet(name: str) -> str:\n    return f"Hello {name}"\n');
    const result = stop(repo);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('packages/cli:test');
    expect(result.stderr).toContain('test_welcome');
    expect(ranGates(repo)).toEqual(['packages/cli:test', 'packages/core:test']);
  });

  it('a change to the root\'s own project runs the members that depend on it (python-sdk\'s examples on `mcp`)', async () => {
    repo = uvWorkspace();
    repo.write('acme/__init__.py', 'NAME = "acme"\n');
    repo.write('packages/tool/pyproject.toml', member('acme-tool', 'dependencies = ["acme"]\n', ['.']));
    repo.commit('tool uses the root project');
    expect((await readWorkspace(repo.dir, 'uv')).rootProject).toEqual({ name: 'acme', sources: ['**/*.py', '**/*.pyi'], dependents: ['packages/tool'] });
    promptStart(repo);
    repo.write('acme/__init__.py', 'NAME = "acme"\nVERSION = "2"\n');
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ranGates(repo)).toEqual(['packages/tool:test']);
  });

  it('a change to uv.lock runs every member\'s gate', () => {
    repo = uvWorkspace();
    promptStart(repo);
    repo.write('uv.lock', 'version = 1\nrevision = 2\n');
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ranGates(repo)).toEqual(['packages/cli:test', 'packages/core:test', 'packages/tool:test']);
  });
});
