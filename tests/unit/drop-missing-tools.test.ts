import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import { dropMissingTools } from '../../src/init/drop-missing-tools.js';
import { readRepoFacts, scanDependencyGroups } from '../../src/init/repo-facts.js';

// Issue 38 point 8: init proposed pyright for click ([tool.pyright]) though pyright was installed
// nowhere; every stop then said "no verdict from typecheck-pyright (could not start)". The lookup is
// the real one a run makes (the project's .venv, node_modules/.bin, PATH), on real folders.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>, programs: string[] = []): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gate-missing-')));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  for (const program of programs) {
    const file = join(dir, program);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o755);
  }
  return dir;
}

async function propose(dir: string, path: string) {
  const facts = readRepoFacts(dir);
  const presets = loadPresets();
  return dropMissingTools(detectPresets(facts, presets), dir, facts, presets, { PATH: path, HOME: dir });
}

// click's pyproject.toml, cut to what detection reads: its typing group has mypy and pyright.
const CLICK = `[project]
name = "click"

[dependency-groups]
dev = ["ruff", "tox"]
typing = [
    "mypy",
    "pyright",
    "pytest",
]

[tool.uv]
default-groups = ["dev", "tests", "typing"]

[tool.pytest.ini_options]
testpaths = ["tests"]

[tool.mypy]
python_version = "3.10"

[tool.pyright]
pythonVersion = "3.10"
`;

describe('init proposes a preset only where its program is found', () => {
  it('click: pyright is in no .venv, node_modules/.bin or PATH: no gate for it, and the exact install', async () => {
    const dir = project({ 'pyproject.toml': CLICK, 'uv.lock': '', '.venv/pyvenv.cfg': 'home = /usr/bin\n', 'tests/test_a.py': 'def test_a():\n    pass\n' }, ['.venv/bin/mypy', '.venv/bin/pytest']);
    const detection = await propose(dir, '/usr/bin:/bin');
    expect(detection.presets.map((chosen) => chosen.preset)).toEqual(['pytest', 'mypy']);
    expect(detection.missingTools).toEqual(['pyright']);
    expect(detection.notes).toEqual([
      `no typecheck-pyright gate: preset pyright fits (pyproject.toml has [tool.pyright]), but pyright is not installed (not in ${join(dir, '.venv')}, node_modules/.bin or PATH), and a gate that cannot start gives no verdict at any stop. Install it: \`uv sync --group typing\` (pyproject.toml's dependency group "typing" has pyright); then add { "name": "typecheck-pyright", "preset": "pyright" } to the config.`,
    ]);
  });

  it('the same project with pyright in the .venv keeps it', async () => {
    const dir = project({ 'pyproject.toml': CLICK, '.venv/pyvenv.cfg': 'home = /usr/bin\n' }, ['.venv/bin/mypy', '.venv/bin/pytest', '.venv/bin/pyright']);
    const detection = await propose(dir, '/usr/bin:/bin');
    expect(detection.presets.map((chosen) => chosen.preset)).toEqual(['pytest', 'mypy', 'pyright']);
    expect(detection.missingTools).toBeUndefined();
    expect(detection.notes.join('\n')).not.toContain('not installed');
  });

  it('no environment and no manager: pip in a venv of its own', async () => {
    const dir = project({ 'pyproject.toml': '[tool.ruff]\nline-length = 100\n' });
    const detection = await propose(dir, '/nonexistent');
    expect(detection.presets).toEqual([]);
    expect(detection.notes.at(-1)).toContain('Install it: `pip install ruff` in the project\'s virtual environment (python3 -m venv .venv); then add { "name": "lint", "preset": "ruff" }');
  });

  it('go.mod with no go on PATH: neither go test nor go vet, and where to get Go', async () => {
    const dir = project({ 'go.mod': 'module example.com/a\n\ngo 1.19\n' });
    const detection = await propose(dir, '/nonexistent');
    expect(detection.presets).toEqual([]);
    expect(detection.notes.join('\n')).toMatch(/no test gate: preset go-test fits \(go\.mod is present\), but go is not installed .* Install it: install Go \(https:\/\/go\.dev\/doc\/install\);/);
  });

  it('node: a tool package.json lists is kept with the install to run; one it does not list is left out with the package to add', async () => {
    const dir = project({ 'package.json': JSON.stringify({ devDependencies: { vitest: '4.1.12' } }), 'pnpm-lock.yaml': '', 'biome.json': '{}\n', 'src/a.test.ts': '' });
    const detection = await propose(dir, '/nonexistent');
    expect(detection.presets.map((chosen) => chosen.preset)).toEqual(['vitest']);
    expect(detection.notes).toContain("package.json devDependencies has vitest, but vitest is not installed here: run `pnpm install` before an agent's first stop, or the test gate cannot start.");
    expect(detection.notes.join('\n')).toContain('biome is not installed (not in node_modules/.bin or PATH), and a gate that cannot start gives no verdict at any stop. Install it: `pnpm add -D @biomejs/biome`;');
  });

  it('reads [dependency-groups] inline and multi-line, and stops at the next table', () => {
    expect(scanDependencyGroups(`${CLICK}\n[other]\nx = ["pyright"]\n`)).toEqual([
      { name: 'dev', tools: ['ruff', 'tox'] },
      { name: 'typing', tools: ['mypy', 'pyright', 'pytest'] },
    ]);
  });
});
