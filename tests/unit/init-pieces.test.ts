import { describe, expect, it } from 'vitest';
import { addIgnoreLines, removeIgnoreLines } from '../../src/init/gitignore-lines.js';
import { installer as claudeInstaller } from '../../src/harness/install/claude.js';
import { chooseHookBin } from '../../src/init/hook-command.js';

const chooseHookCommand = (input: Parameters<typeof chooseHookBin>[0]) => {
  const chosen = chooseHookBin(input);
  return { mode: chosen.bin.mode, command: claudeInstaller.command(chosen.bin) };
};
import { hashText } from '../../src/init/install-record.js';
import { planUninstall } from '../../src/init/plan-uninstall.js';
import { renderStarterConfig } from '../../src/init/starter-config.js';
import { unifiedDiff } from '../../src/init/unified-diff.js';

describe('addIgnoreLines / removeIgnoreLines', () => {
  it.each([
    [undefined, 'a\nb\n'],
    ['', 'a\nb\n'],
    ['node_modules', 'node_modules\na\nb\n'],
    ['a\n', 'a\nb\n'],
    ['x\r\n', 'x\r\na\r\nb\r\n'],
  ])('adds to %j without duplicating', (before, after) => {
    expect(addIgnoreLines(before, ['a', 'b'])).toBe(after);
    expect(addIgnoreLines(after, ['a', 'b'])).toBe(after);
  });

  it('removes exactly the given lines', () => {
    expect(removeIgnoreLines('x\na\ny\nb\n', ['a', 'b'])).toBe('x\ny\n');
    expect(removeIgnoreLines('x\r\na\r\n', ['a'])).toBe('x\r\n');
  });
});

describe('chooseHookCommand', () => {
  const base = { projectDir: '/repo', localBin: undefined, listedInPackageJson: false, ranThroughNpx: false, version: '1.2.3' };

  it('addresses a local install from CLAUDE_PROJECT_DIR, quoted, also when hoisted to a monorepo root', () => {
    expect(chooseHookCommand({ ...base, localBin: '/repo/node_modules/.bin/gate' }).command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run');
    expect(chooseHookCommand({ ...base, projectDir: '/mono/packages/app', localBin: '/mono/node_modules/.bin/gate' }).command).toBe(
      '"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/gate run',
    );
    expect(chooseHookCommand({ ...base, projectDir: '/m/a', localBin: '/m/x y/node_modules/.bin/gate' }).command).toBe('"$CLAUDE_PROJECT_DIR/../x y/node_modules/.bin/gate" run');
    expect(chooseHookCommand({ ...base, listedInPackageJson: true }).mode).toBe('local');
  });

  it('falls back to a pinned npx, or a global install', () => {
    expect(chooseHookCommand({ ...base, ranThroughNpx: true }).command).toBe('npx --yes stopgate@1.2.3 run');
    expect(chooseHookCommand(base).command).toBe('gate run');
  });
});

describe('renderStarterConfig', () => {
  it('writes one gate per line, valid JSON, with the schema when there is one', () => {
    const text = renderStarterConfig([{ name: 'test', preset: 'vitest' }, { name: 'lint', preset: 'eslint' }], './node_modules/stopgate/schema.json', { $schema: 'x', maxBlocks: 3, gates: [] });
    expect(text).toBe(
      '{\n  "$schema": "./node_modules/stopgate/schema.json",\n  "maxBlocks": 3,\n  "gates": [\n    { "name": "test", "preset": "vitest" },\n    { "name": "lint", "preset": "eslint" }\n  ]\n}\n',
    );
    expect(JSON.parse(renderStarterConfig([], undefined, { maxBlocks: 3 }))).toEqual({ maxBlocks: 3, gates: [] });
  });
});

describe('unifiedDiff', () => {
  it('shows a new file, a change in context, and nothing for equal texts', () => {
    expect(unifiedDiff('a.json', undefined, '{\n}\n')).toBe('--- /dev/null\n+++ b/a.json\n@@ -0,0 +1,2 @@\n+{\n+}\n');
    const before = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const after = 'l1\nl2\nl3\nl4\nl5\nNEW\nl6\nl7\nl8\n';
    expect(unifiedDiff('f', before, after)).toBe('--- a/f\n+++ b/f\n@@ -3,6 +3,7 @@\n l3\n l4\n l5\n+NEW\n l6\n l7\n l8\n');
    expect(unifiedDiff('f', before, before)).toBe('');
    expect(unifiedDiff('f', 'x\n', undefined)).toBe('--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n');
  });
});

describe('planUninstall', () => {
  it('restores untouched files from the record and deletes files init created', () => {
    const files: Record<string, string> = { '.claude/settings.json': 'AFTER', 'gate.config.json': 'CONFIG' };
    const record = {
      files: [
        { file: '.claude/settings.json', before: 'ORIGINAL', writtenHash: hashText('AFTER') },
        { file: 'gate.config.json', before: null, writtenHash: hashText('CONFIG') },
      ],
    };
    expect(planUninstall(claudeInstaller, false, '/home', (file) => files[file], record).removals).toEqual([
      { file: '.claude/settings.json', before: 'AFTER', after: 'ORIGINAL' },
      { file: 'gate.config.json', before: 'CONFIG', after: undefined },
    ]);
  });

  it('without a record removes only the hooks and keeps the config', () => {
    const settings = JSON.stringify({ model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'gate run' }] }] } }, null, 2);
    const plan = planUninstall(claudeInstaller, false, '/home', (file) => ({ '.claude/settings.json': settings, 'gate.config.json': '{}' })[file], undefined);
    expect(plan.removals.map((removal) => [removal.file, removal.after === undefined ? undefined : JSON.parse(removal.after)])).toEqual([['.claude/settings.json', { model: 'x' }]]);
    expect(plan.notes).toEqual(['gate.config.json was not written by gate init here, so it is kept.']);
  });
});

describe('chooseHookBin for a user-level hook file', () => {
  const base = { projectDir: '/repo', localBin: '/repo/node_modules/.bin/gate', listedInPackageJson: true, ranThroughNpx: false, version: '1.2.3', userLevel: true };

  it('never points into one repository relatively: global gate, else this checkout by absolute path, else npx', () => {
    expect(chooseHookBin({ ...base, globalOnPath: true }).bin).toMatchObject({ mode: 'global', program: 'gate' });
    expect(chooseHookBin({ ...base, globalOnPath: false }).bin).toMatchObject({ mode: 'global', program: '/repo/node_modules/.bin/gate' });
    expect(chooseHookBin({ ...base, localBin: '/my repo/node_modules/.bin/gate' }).bin.program).toBe('"/my repo/node_modules/.bin/gate"');
    expect(chooseHookBin({ ...base, localBin: undefined }).bin).toMatchObject({ mode: 'npx', program: 'npx --yes stopgate@1.2.3' });
  });
});
