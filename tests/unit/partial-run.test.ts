import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { stoppedEarly } from '../../src/verdict/partial-run.js';

const capture = (path: string) => readFileSync(new URL(`../fixtures/outputs/${path}`, import.meta.url), 'utf8');
const preset = (id: string) => JSON.parse(readFileSync(new URL(`../../presets/${id}.json`, import.meta.url), 'utf8')) as { run: string[]; filter: string };
const ids = (filter: string, output: string) => filterOutput(filter, output).failures.map((failure) => failure.id);

describe('stoppedEarly: from the command', () => {
  it.each([
    ['cargo clippy --all-targets -- -D warnings', 'cargo-clippy', true],
    ['cargo clippy --all-targets --keep-going -- -D warnings', 'cargo-clippy', false],
    ['cargo clippy --all-targets -- -D warnings --keep-going', 'cargo-clippy', true], // after `--` it is rustc's, not cargo's
    ['cargo +nightly clippy --workspace --keep-going', 'cargo-clippy', false],
    ['cargo check', 'generic', true],
    ['cargo build --keep-going', 'generic', false],
    ['cargo test', 'cargo-test', true],
    ['cargo test --no-fail-fast', 'cargo-test', false],
    ['cargo test --no-fail-fast -p app -- --test-threads=1', 'cargo-test', false],
    ['cargo nextest run', 'generic', true],
    ['cargo nextest run --no-fail-fast', 'generic', false],
    ['cargo fmt --all --check', 'generic', false],
    ['pytest -q', 'pytest', false],
    ['pytest -x', 'pytest', true],
    ['pytest -qx', 'pytest', true],
    ['python -m pytest --exitfirst', 'pytest', true],
    ['uv run pytest --maxfail=3', 'pytest', true],
    ['pytest --maxfail 3', 'pytest', true],
    ['pytest --maxfail=0', 'pytest', false],
    ['pytest --sw', 'pytest', true],
    ['pytest -rx -q', 'pytest', false], // -r takes the letters that follow: x is a report character
    ['pytest -k xyz', 'pytest', false],
    ['vitest run', 'vitest', false],
    ['npx vitest run --bail=1', 'vitest', true],
    ['vitest run --bail 2', 'vitest', true],
    ['vitest run --bail=0', 'vitest', false],
    ['jest --ci', 'jest', false],
    ['jest --ci -b', 'jest', true],
    ['./node_modules/.bin/jest --bail', 'jest', true],
    ['mocha', 'mocha', false],
    ['mocha --bail', 'mocha', true],
    ['go test ./...', 'go-test', false],
    ['go test -failfast ./...', 'go-test', true],
    ['go vet ./...', 'go-vet', false],
    ['npm test -- --bail', 'jest', true], // the runner behind a script, known by its filter
    ['npm test', 'jest', false],
    ['eslint .', 'eslint', false],
    ['ruff check --no-fix .', 'ruff', false],
    ['node --test', 'node-test', false],
  ])('%s (filter %s) → %s', (command, filter, expected) => {
    expect(stoppedEarly(command, undefined, filter, '')).toBe(expected);
  });

  it('takes an argv as well as a string', () => {
    expect(stoppedEarly(['cargo', 'clippy', '--all-targets', '--', '-D', 'warnings'], 'cargo-clippy', 'cargo-clippy', '')).toBe(true);
    expect(stoppedEarly(['pytest', '-q'], 'pytest', 'pytest', '')).toBe(false);
  });
});

describe('stoppedEarly: the presets report every failure', () => {
  it.each(['cargo-clippy', 'cargo-test', 'pytest', 'vitest', 'jest', 'mocha', 'go-test', 'go-vet', 'tsc', 'mypy', 'eslint', 'ruff', 'biome', 'node-test'])('%s', (id) => {
    const { run, filter } = preset(id);
    expect(stoppedEarly(run, id, filter, '')).toBe(false);
  });
});

describe('stoppedEarly: from real output', () => {
  it('cargo clippy without --keep-going stopped at the first crate; with it, both crates are reported', () => {
    const stopped = capture('cargo-clippy/stopped-first-crate.txt');
    const full = capture('cargo-clippy/keep-going.txt');
    expect(ids('cargo-clippy', stopped)).toEqual(['beta/src/lib.rs clippy::len_zero: length comparison to zero']);
    expect(ids('cargo-clippy', full)).toEqual(expect.arrayContaining([...ids('cargo-clippy', stopped), expect.stringMatching(/^alpha\/src\/lib\.rs clippy::needless_return/)]));
    expect(stoppedEarly('cargo clippy --all-targets -- -D warnings', undefined, 'cargo-clippy', stopped)).toBe(true);
    expect(stoppedEarly(preset('cargo-clippy').run, 'cargo-clippy', 'cargo-clippy', full)).toBe(false);
    // Behind a script the flags are unseen: a crate that could not compile may have hidden others.
    expect(stoppedEarly('make lint', undefined, 'cargo-clippy', full)).toBe(true);
  });

  it('cargo test without --no-fail-fast stopped after the first failing test binary', () => {
    const stopped = capture('cargo-test/stopped-fail-fast.txt');
    expect(ids('cargo-test', stopped)).toEqual(['alpha::tests::counts']);
    expect(stoppedEarly('cargo test', undefined, 'cargo-test', stopped)).toBe(true);
    // No "error: N targets failed" summary: cargo ran with fail-fast, wherever its flags were.
    expect(stoppedEarly('just test', undefined, 'cargo-test', stopped)).toBe(true);
    expect(stoppedEarly('just test', undefined, 'cargo-test', capture('cargo-test/failures.txt'))).toBe(false);
    expect(stoppedEarly(preset('cargo-test').run, 'cargo-test', 'cargo-test', capture('cargo-test/failures.txt'))).toBe(false);
  });

  it('cargo test --no-fail-fast on a build error ran no test and compiled one crate only', () => {
    const stopped = capture('cargo-test/build-error-first-crate.txt');
    expect(stopped).not.toMatch(/alpha/);
    expect(stoppedEarly(preset('cargo-test').run, 'cargo-test', 'cargo-test', stopped)).toBe(true);
    expect(stoppedEarly(preset('cargo-test').run, 'cargo-test', 'cargo-test', capture('cargo-test/build-error-e0308.txt'))).toBe(true);
  });

  it('pytest says when -x (even from its config) or a collection error cut the run short', () => {
    expect(stoppedEarly('pytest -q', 'pytest', 'pytest', capture('pytest/stopped-first-failure.txt'))).toBe(true);
    expect(stoppedEarly('pytest -q', 'pytest', 'pytest', capture('pytest/collection-errors.txt'))).toBe(true);
    expect(stoppedEarly('pytest -q', 'pytest', 'pytest', capture('pytest/assertion-diffs.txt'))).toBe(false);
  });

  it('go vet that could not type-check a package ran no analyzer on it', () => {
    expect(stoppedEarly('go vet ./...', 'go-vet', 'go-vet', capture('go-vet/typecheck-error.txt'))).toBe(true);
    expect(stoppedEarly('go vet ./...', 'go-vet', 'go-vet', capture('go-vet/findings.txt'))).toBe(false);
    expect(stoppedEarly('go test ./...', 'go-test', 'go-test', './a.go:13:16: too many errors\nFAIL\tm [build failed]\n')).toBe(true);
  });

  it("any run whose output gate's bounded capture cut in the middle", () => {
    expect(stoppedEarly('eslint .', 'eslint', 'eslint', 'a.js\n  1:1  error  x  no-undef\n[gate: 52000 bytes of output omitted here]\n✖ 900 problems\n')).toBe(true);
  });

  it('tsc that met a syntax error type-checked nothing; mypy and biome say when they left errors out', () => {
    expect(stoppedEarly('tsc --noEmit', 'tsc', 'tsc', "b.ts(2,1): error TS1005: '}' expected.\n")).toBe(true);
    expect(stoppedEarly('tsc --noEmit', 'tsc', 'tsc', "a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n")).toBe(false);
    expect(stoppedEarly('mypy .', 'mypy', 'mypy', 'b.py:1: error: Expected a parameter  [syntax]\nFound 1 error in 1 file (errors prevented further checking)\n')).toBe(true);
    expect(stoppedEarly('biome check .', 'biome', 'biome', capture('biome/volume-526-diagnostics.txt'))).toBe(true);
  });
});
