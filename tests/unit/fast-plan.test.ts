import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import type { FastTier } from '../../src/config/schema.js';
import { planFastTier } from '../../src/fast/fast-plan.js';
import { buildCommand } from '../../src/runner/build-command.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-fast-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LINT_TIER: FastTier = {
  by: 'changed-files',
  run: ['lint', '--cache', '{cache}/', '{files}'],
  fullRunOn: ['lint.config.*'],
  crossFile: { configs: ['lint.config.*'], mentions: ['importRules'] },
};

function gate(tier: FastTier | undefined, extra: Partial<ResolvedGate> = {}): ResolvedGate {
  return { name: 'lint', shortName: 'lint', configDir: dir, preset: 'x', run: ['lint', '.'], shell: false, on: ['**/*'], ignore: [], timeoutSeconds: 10, filter: 'generic', tier, fastOff: false, cwd: dir, env: {}, retries: 0, ...extra };
}
const build = (g: ResolvedGate, files: string[], full = false) => buildCommand(g, files, { projectDir: dir, cacheDir: '/state/cache/lint', full });

describe('the changed-files tier', () => {
  it('runs the tier on the changed files, with {cache} expanded', async () => {
    writeFileSync(join(dir, 'a.js'), '');
    writeFileSync(join(dir, 'b.js'), '');
    expect(await build(gate(LINT_TIER), ['a.js', 'b.js'])).toMatchObject({ argv: ['lint', '--cache', '/state/cache/lint/', 'a.js', 'b.js'], fast: true, why: 'only what 2 changed files touches' });
  });

  it('passes a changed file whose name starts with "-" as ./name, never as an option', async () => {
    writeFileSync(join(dir, '--fix.js'), '');
    writeFileSync(join(dir, 'a.js'), '');
    expect(await build(gate(LINT_TIER), ['--fix.js', 'a.js'])).toMatchObject({ argv: ['lint', '--cache', '/state/cache/lint/', './--fix.js', 'a.js'], fast: true });
  });

  it('runs the full command when the changed files would not fit on one command line, and shows only a few of them', async () => {
    const names = Array.from({ length: 2000 }, (_, index) => `${'a-long-generated-file-name-'.repeat(2)}${index}.js`);
    for (const name of names) writeFileSync(join(dir, name), '');
    expect(await build(gate(LINT_TIER), names)).toMatchObject({ argv: ['lint', '.'], fast: false, why: expect.stringMatching(/^2000 changed files make a command line too long \(1[12]\d KiB\): the full run$/) });
    const few = await build(gate(LINT_TIER), names.slice(0, 25));
    expect(few.argv).toHaveLength(28);
    // The `$` line stays within the report's 300 characters, its count of the rest included.
    expect(few.display).toMatch(/^lint --cache \/state\/cache\/lint\/ (?:a-long-generated-file-name-){2}0\.js (?:a-long-generated-file-name-){2}1\.js (?:a-long-generated-file-name-){2}2\.js … and 22 more$/);
  });

  it('runs the full command for a config change, a deleted file, a config with cross-file rules, --all and "related": false', async () => {
    writeFileSync(join(dir, 'a.js'), '');
    writeFileSync(join(dir, 'lint.config.js'), 'export default {}');
    expect(await build(gate(LINT_TIER), ['lint.config.js', 'a.js'])).toMatchObject({ argv: ['lint', '.'], fast: false, why: 'lint.config.js changed, which affects every run' });
    expect(await build(gate(LINT_TIER), ['a.js', 'gone.js'])).toMatchObject({ argv: ['lint', '.'], fast: false, why: 'gone.js was deleted' });
    expect(await build(gate(LINT_TIER), ['a.js'], true)).toMatchObject({ argv: ['lint', '.'], fast: false, why: 'the full run' });
    expect(await build(gate(LINT_TIER, { fastOff: true }), ['a.js'])).toMatchObject({ argv: ['lint', '.'], fast: false, why: '"related": false: the full run' });
    writeFileSync(join(dir, 'lint.config.js'), 'export default { importRules: true }');
    expect(await build(gate(LINT_TIER), ['a.js'])).toMatchObject({ argv: ['lint', '.'], fast: false, why: 'lint.config.js mentions importRules: rules that read other files' });
  });

  it('leaves a gate without a tier (its own run) alone', async () => {
    writeFileSync(join(dir, 'a.js'), '');
    expect(await build(gate(undefined, { run: ['lint', '{files}'] }), ['a.js', 'gone.js'])).toMatchObject({ argv: ['lint', 'a.js'], fast: false, why: undefined });
  });
});

describe('planFastTier', () => {
  it('turns a planner that throws into the full run, with the reason', async () => {
    const plan = await planFastTier({ gate: { ...gate(LINT_TIER), tier: { ...LINT_TIER, by: 'nonexistent' as FastTier['by'] } }, files: ['a.js'], mode: 'fast' });
    expect(plan).toMatchObject({ kind: 'full' });
    expect(plan.why).toMatch(/^the fast tier could not be planned \(/);
  });

  it('keeps the incremental tier for every stop and the full command for --all', async () => {
    const tier: FastTier = { by: 'incremental', run: ['check', '--cache-dir', '{cache}', '.'], fullRunOn: [] };
    expect(await build(gate(tier, { run: ['check', '.'] }), [])).toMatchObject({ argv: ['check', '--cache-dir', '/state/cache/lint', '.'], fast: true });
    expect(await build(gate(tier, { run: ['check', '.'] }), [], true)).toMatchObject({ argv: ['check', '.'], fast: false });
  });
});

describe('the command a report shows', () => {
  it('runs a bin of the project\'s dependencies through its own runner: `pnpm exec` in a pnpm project, npx in an npm one', async () => {
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', '.bin', 'biome'), '');
    writeFileSync(join(dir, 'a.js'), '');
    const biome = gate(undefined, { run: ['biome', 'check', '{files}'] });
    expect((await build(biome, ['a.js'])).display).toBe('npx biome check a.js');
    writeFileSync(join(dir, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n');
    expect((await build(biome, ['a.js'])).display).toBe('pnpm exec biome check a.js');
  });

  it('names the test files first when a run on 30 files is shown in part: the report\'s 300 characters cut none of them', async () => {
    const sources = Array.from({ length: 24 }, (_, index) => `packages/core/src/internal/module-${index}.ts`);
    const tests = ['packages/core/src/internal/cache.test.ts', 'packages/core/tests/exchange.spec.ts', 'packages/react/src/use-query.test.tsx'];
    for (const file of [...sources, ...tests]) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), '');
    }
    const vitest = gate(undefined, { run: ['vitest', 'run', '{files}'] });
    const { display } = await build(vitest, [...sources, ...tests]);
    expect(display).toBe(`vitest run ${tests.join(' ')} ${sources.slice(0, 2).join(' ')} … and 22 more`);
    expect(display.length).toBeLessThanOrEqual(300);
  });
});
