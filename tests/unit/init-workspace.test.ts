import { describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { installer as claudeInstaller } from '../../src/harness/install/claude.js';
import { detectPresets, type PackageManager } from '../../src/init/detect-presets.js';
import { hashText } from '../../src/init/install-record.js';
import { planUninstall } from '../../src/init/plan-uninstall.js';
import { planWorkspaceLayout } from '../../src/init/plan-workspace.js';
import type { RepoFacts } from '../../src/init/repo-facts.js';
import { renderStarterConfig } from '../../src/init/starter-config.js';
import type { WorkspaceKind } from '../../src/workspace/workspace-graph.js';

const presets = loadPresets();

function facts(files: string[], devDependencies: string[] = [], scripts: Record<string, string> = {}, sections: Record<string, string[]> = {}): RepoFacts {
  return { files: [...files, 'package.json'].sort(), packageJson: { dependencies: devDependencies.length > 0 ? { devDependencies } : {}, scripts, keys: [], packageManager: undefined }, sections };
}

function layout(kind: WorkspaceKind, root: RepoFacts, members: Record<string, RepoFacts>, packageManager: PackageManager = 'npm') {
  return planWorkspaceLayout({
    kind,
    root: detectPresets(root, presets, { workspaceRoot: true }),
    members: Object.entries(members).map(([dir, memberFacts]) => ({ dir, facts: memberFacts, detection: detectPresets(memberFacts, presets, { member: true }) })),
    packageManager,
    presets,
  });
}

const gatesOf = (planned: Array<{ gate: object }>) => planned.map(({ gate }) => gate);

describe('planWorkspaceLayout', () => {
  const lib = facts(['tsconfig.json'], ['vitest', 'typescript']);

  it('gives each package its own presets, keeps the root to what the packages do not run, and lends it the root linter', () => {
    const plan = layout('npm', facts(['eslint.config.js', 'tsconfig.json'], ['eslint', 'typescript', 'vitest']), { 'packages/lib': lib, 'packages/docs': facts([]) });
    expect(plan.mode).toBe('packages');
    expect(plan.workspacesKey).toBe('npm');
    expect(gatesOf(plan.rootGates)).toEqual([{ name: 'lint', preset: 'eslint' }]);
    expect(plan.members.map((member) => [member.dir, gatesOf(member.gates)])).toEqual([
      [
        'packages/lib',
        [
          { name: 'test', preset: 'vitest' },
          { name: 'typecheck', preset: 'tsc' },
          { name: 'lint', preset: 'eslint' },
        ],
      ],
      ['packages/docs', []],
    ]);
    expect(plan.notes).toEqual([
      expect.stringMatching(/^the root's vitest and tsc are left out of the root config: the packages run their own/),
      'nothing detected in packages/docs: no config there; the root config\'s gates cover its files.',
    ]);
  });

  it('keeps a root test runner no package duplicates, and a package linter over the root\'s', () => {
    const plan = layout('npm', facts(['eslint.config.js'], ['eslint', 'vitest']), { 'packages/ui': facts(['biome.json'], ['@biomejs/biome']) });
    expect(gatesOf(plan.rootGates)).toEqual([
      { name: 'test', preset: 'vitest' },
      { name: 'lint', preset: 'eslint' },
    ]);
    expect(gatesOf(plan.members[0]?.gates ?? [])).toEqual([{ name: 'lint', preset: 'biome' }]);
  });

  it.each<[PackageManager, string[]]>([
    ['npm', ['npm', 'run', 'test']],
    ['pnpm', ['pnpm', 'run', 'test']],
    ['yarn', ['yarn', 'run', 'test']],
  ])('runs a test script no preset knows through %s', (manager, run) => {
    const plan = layout('npm', facts([]), { 'packages/a': facts([], [], { test: 'tap' }), 'packages/b': facts([], [], { test: 'echo "Error: no test specified" && exit 1' }) }, manager);
    expect(gatesOf(plan.members[0]?.gates ?? [])).toEqual([{ name: 'test', run }]);
    expect(plan.members[1]?.gates).toEqual([]);
  });

  it('hands a Turborepo repo to turbo: its presets at the root, over the root\'s own tools, and no package configs', () => {
    const turboJson = { 'turbo.json': ['tasks', 'tasks.test', 'tasks.typecheck', 'tasks.lint'] };
    const plan = layout('pnpm', facts(['turbo.json', 'tsconfig.json'], ['turbo', 'vitest', 'typescript'], {}, turboJson), { 'packages/lib': lib });
    expect(plan.mode).toBe('delegate');
    expect(plan.workspacesKey).toBeUndefined();
    expect(gatesOf(plan.rootGates)).toEqual([
      { name: 'test', preset: 'turbo-test' },
      { name: 'typecheck', preset: 'turbo-typecheck' },
      { name: 'lint', preset: 'turbo-lint' },
    ]);
    expect(plan.members).toEqual([]);
  });

  it('keeps a cargo workspace at the root, with no "workspaces" key: its presets follow the crate graph', () => {
    const root: RepoFacts = { files: ['Cargo.toml'], packageJson: undefined, sections: {} };
    const plan = layout('cargo', root, {});
    expect(plan.mode).toBe('root');
    expect(plan.workspacesKey).toBeUndefined();
    expect(gatesOf(plan.rootGates)).toEqual([
      { name: 'test', preset: 'cargo-test' },
      { name: 'lint', preset: 'cargo-clippy' },
    ]);
  });
});

describe('renderStarterConfig for a workspace', () => {
  it('names the workspace at the root, and writes only gates (with a run command) in a package', () => {
    expect(renderStarterConfig([], undefined, { maxBlocks: 3 }, { workspaces: 'pnpm' })).toBe('{\n  "maxBlocks": 3,\n  "workspaces": "pnpm",\n  "gates": []\n}\n');
    expect(renderStarterConfig([{ name: 'test', run: ['pnpm', 'run', 'test'] }], '../../node_modules/stopgate/schema.json', { maxBlocks: 3 }, { nested: true })).toBe(
      '{\n  "$schema": "../../node_modules/stopgate/schema.json",\n  "gates": [\n    { "name": "test", "run": ["pnpm", "run", "test"] }\n  ]\n}\n',
    );
  });
});

describe('planUninstall in a workspace', () => {
  const hooks = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/gate run' }] }] } }, null, 2);

  it('undoes every package file init recorded, and takes gate\'s hooks out of a package\'s settings it did not record', () => {
    const files: Record<string, string> = {
      'gate.config.json': 'ROOT',
      'packages/a/gate.config.json': 'A',
      'packages/a/.claude/settings.json': 'A-HOOKS',
      'packages/b/gate.config.json': 'B, edited',
      'packages/c/.claude/settings.json': hooks,
    };
    const record = {
      files: [
        { file: 'gate.config.json', before: null, writtenHash: hashText('ROOT') },
        { file: 'packages/a/gate.config.json', before: null, writtenHash: hashText('A') },
        { file: 'packages/a/.claude/settings.json', before: '{}\n', writtenHash: hashText('A-HOOKS') },
        { file: 'packages/b/gate.config.json', before: null, writtenHash: hashText('B') },
      ],
    };
    const plan = planUninstall(claudeInstaller, false, '/home', (file) => files[file], record, ['packages/a', 'packages/b', 'packages/c']);
    expect(plan.removals.map((removal) => [removal.file, removal.after])).toEqual([
      ['packages/a/.claude/settings.json', '{}\n'],
      ['packages/c/.claude/settings.json', '{}\n'],
      ['gate.config.json', undefined],
      ['packages/a/gate.config.json', undefined],
    ]);
    expect(plan.notes).toEqual([expect.stringMatching(/^the gate\.config\.json in packages\/b was edited since gate init wrote it, so it is kept/)]);
  });
});
