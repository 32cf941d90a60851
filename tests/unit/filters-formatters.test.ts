import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnosticId, numberRepeats } from '../../src/filters/diagnostic-id.js';
import { filterOutput } from '../../src/filters/filter-output.js';

// Issue 26, point 7: a formatter's failure reaches the agent with the file, the change and the fix.
const fixture = (path: string) => readFileSync(new URL(`../fixtures/outputs/${path}`, import.meta.url), 'utf8');
const report = (filter: string, path: string) => {
  const filtered = filterOutput(filter, fixture(path));
  return { text: [...filtered.items.flat(), ...filtered.summary].join('\n'), ids: filtered.failures.map((failure) => failure.id) };
};

describe('formatter outputs', () => {
  it('biome format: each file with its changed lines and the command that formats it', () => {
    const { text, ids } = report('biome', 'biome/format.txt');
    expect(text).toContain(
      [
        'src/x.ts format',
        '  × Formatter would have printed the following content:',
        '  i Run `npx biome format --write src/x.ts` to format it.',
        '    1   │ - export·const··x·=·{a:1,',
      ].join('\n'),
    );
    expect(text).toContain('    3 │ + → return·a·+·b;');
    expect(text).not.toContain('Some errors were emitted');
    expect(ids).toEqual(['package.json format: Formatter would have printed the following content:', 'src/x.ts format: Formatter would have printed the following content:']);
    expect(report('biome', 'biome/check-format.txt')).toEqual({ text, ids });
  });

  it('biome 2.0 beta: the leading slash of a project path goes', () => {
    const { text, ids } = report('biome', 'biome/check-format-2.0-beta.txt');
    expect(text).toMatch(/^src\/array\/alphabetical\.ts format\n/);
    expect(text).toContain('npx biome format --write src/array/alphabetical.ts');
    expect(text).toContain('    20    │ - export·const··bad·=·{a:1,');
    expect(text).not.toMatch(/(^|\s)\/src\//m);
    expect(ids).toEqual(['src/array/alphabetical.ts format: Formatter would have printed the following content:']);
  });

  it('ruff format --check and --diff: the file, its diff and `ruff format <file>`', () => {
    const check = report('ruff', 'ruff/format-check.txt');
    expect(check.text).toContain('unformatted: File would be reformatted\nRun `ruff format app.py` to format it.\n --> app.py:2:1\n  - x = {"a":1,');
    expect(check.text).toContain('1 file would be reformatted, 1 file already formatted');
    const diff = report('ruff', 'ruff/format-diff.txt');
    expect(diff.text).toContain('Run `ruff format app.py` to format it.\n--- app.py\n+++ app.py\n@@ -1,4 +1,7 @@');
    expect(diff.ids).toEqual(check.ids);
  });

  it('black --check (and --diff): a failure per file, the diff kept, and `black <files>`', () => {
    const check = report('generic', 'formatters/black-check.txt');
    expect(check.ids).toEqual(['/tmp/cap/black/p/pkg/app.py format: not formatted', '/tmp/cap/black/p/pkg/util.py format: not formatted']);
    expect(check.text).toMatch(/Run `black \/tmp\/cap\/black\/p\/pkg\/app\.py \/tmp\/cap\/black\/p\/pkg\/util\.py` to format them\.$/);
    const diff = report('generic', 'formatters/black-check-diff.txt');
    expect(diff.text).toContain('-def f( a ):\n-  return a\n+def f(a):\n+    return a');
    expect([...diff.ids].sort()).toEqual(check.ids);
  });

  it('prettier --check, gofmt -l and -d, rustfmt --check: the files, the diff and the command, with a failure per file', () => {
    const prettier = report('generic', 'formatters/prettier-check.txt');
    expect(prettier.text).toContain('[warn] a.js\n[warn] package.json');
    expect(prettier.text).toContain('Run `npx prettier --write a.js package.json` to format them.');
    expect(prettier.ids).toEqual(['a.js format: not formatted', 'package.json format: not formatted']);
    expect(report('generic', 'formatters/gofmt-l.txt')).toEqual({ text: 'add.go\nRun `gofmt -w add.go` to format it.', ids: ['add.go format: not formatted'] });
    const gofmt = report('generic', 'formatters/gofmt-d.txt');
    expect(gofmt.text).toContain('-func  Add(a int,b int) int {\n-return a+b\n+func Add(a int, b int) int {');
    expect(gofmt.text).toMatch(/Run `gofmt -w add\.go` to format it\.$/);
    for (const path of ['formatters/rustfmt-check.txt', 'formatters/cargo-fmt-check.txt']) {
      const rust = report('generic', path);
      expect(rust.text).toContain('-pub fn add(a:i32,b:i32)->i32{a+b}\n+pub fn add(a: i32, b: i32) -> i32 {');
      expect(rust.text).toMatch(/Run `cargo fmt` \(or `rustfmt` on the files\) to format them\.$/);
      expect(rust.ids).toEqual(['/tmp/fmt26/rs/src/lib.rs format: not formatted']);
    }
  });

  it('claims no failures when the output has anything besides the formatter\'s lines', () => {
    const mixed = `src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n${fixture('formatters/prettier-check.txt')}`;
    expect(filterOutput('generic', mixed).failures).toEqual([]);
    expect(filterOutput('generic', `compiling…\n${fixture('formatters/gofmt-l.txt')}`).failures).toEqual([]);
  });
});

describe('the fix a formatter\'s report names, through the project\'s runner', () => {
  it('`pnpm exec biome` and `pnpm exec prettier` in a pnpm project, never npx', () => {
    const text = (filter: string, path: string) => [...filterOutput(filter, fixture(path), 'pnpm exec').items.flat(), ...filterOutput(filter, fixture(path), 'pnpm exec').summary].join('\n');
    expect(text('biome', 'biome/format.txt')).toContain('  i Run `pnpm exec biome format --write src/x.ts` to format it.');
    expect(text('generic', 'formatters/prettier-check.txt')).toContain('Run `pnpm exec prettier --write a.js package.json` to format them.');
    expect(text('biome', 'biome/format.txt')).not.toContain('npx');
  });
});

describe('diagnostic ids', () => {
  it('leave out the line, and positions quoted in the message', () => {
    expect(diagnosticId('a.py', 'no-redef', 'Name "f" already defined on line 12')).toBe(diagnosticId('a.py', 'no-redef', 'Name "f" already defined on line 14'));
    expect(diagnosticId('a.ts', 'TS2451', "see  b.ts:3:5")).toBe('a.ts TS2451: see b.ts:N');
  });

  it('number the repeats of one finding, so a new copy is a new id', () => {
    const failure = { id: 'a.py assignment: x', message: 'x' };
    expect(numberRepeats([failure, failure, failure]).map((each) => each.id)).toEqual(['a.py assignment: x', 'a.py assignment: x (#2)', 'a.py assignment: x (#3)']);
  });
});
