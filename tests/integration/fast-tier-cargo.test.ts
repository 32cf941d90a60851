import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { build, presetGate, requireTools, run } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

const ready = requireTools('cargo');

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// One target folder for the file: each test's workspace is the same crates, built once. Offline:
// the crates have no dependencies from a registry.
const cargoHome = mkdtempSync(join(tmpdir(), 'gate-cargo-'));
afterAll(() => rmSync(cargoHome, { recursive: true, force: true }));
const CARGO_ENV = { CARGO_TARGET_DIR: join(cargoHome, 'target'), CARGO_NET_OFFLINE: 'true', CARGO_TERM_COLOR: 'never', CARGO_INCREMENTAL: '0' };

const test = (name: string, body: string) => `\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn ${name}() {\n        ${body}\n    }\n}\n`;
const manifest = (name: string, deps = '') => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${deps ? `\n[dependencies]\n${deps}` : ''}`;

// core is shared (app depends on it), leaf stands alone; each has a test.
const WORKSPACE = {
  '.gitignore': 'target/\n',
  'Cargo.toml': '[workspace]\nmembers = ["core", "app", "leaf"]\nresolver = "2"\n',
  'core/Cargo.toml': manifest('shop-core'),
  'core/src/lib.rs': `pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n${test('adds', 'assert_eq!(super::add(1, 2), 3);')}`,
  'app/Cargo.toml': manifest('shop-app', 'shop-core = { path = "../core" }\n'),
  'app/src/lib.rs': `pub fn total() -> i32 {\n    shop_core::add(2, 2)\n}\n${test('totals', 'assert_eq!(super::total(), 4);')}`,
  'leaf/Cargo.toml': manifest('shop-leaf'),
  'leaf/src/lib.rs': `pub fn name() -> &'static str {\n    "leaf"\n}\n${test('names', 'assert_eq!(super::name(), "leaf");')}`,
};

function setUp(preset = 'cargo-test', files: Record<string, string> = WORKSPACE) {
  repo = makeRepo(files);
  const env = { PATH: toolEnv()['PATH'] ?? '', RUSTUP_HOME: toolEnv()['RUSTUP_HOME'] ?? '', ...CARGO_ENV };
  return { gate: presetGate(repo.dir, preset, env, preset === 'cargo-test' ? 'test' : 'lint'), env: { ...repo.env, ...env } };
}

describe.skipIf(!ready)('cargo test / clippy: the changed members and those that depend on them', () => {
  it('tests only the leaf for a change in the leaf', async () => {
    const { gate, env } = setUp();
    repo.write('leaf/src/lib.rs', `pub fn name() -> &'static str {\n    "leaves"\n}\n${test('names', 'assert_eq!(super::name(), "leaf");')}`);
    const command = await build(repo.dir, gate, ['leaf/src/lib.rs']);
    expect(command).toMatchObject({
      argv: ['cargo', 'test', '--no-fail-fast', '-p', 'shop-leaf'],
      fast: true,
      why: 'only 1 of 3 crates: shop-leaf (the changed ones and those that depend on them)',
    });
    const result = await run(repo.dir, gate, ['leaf/src/lib.rs'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/tests::names/);
    expect(result.output).not.toMatch(/shop[-_](core|app)/);
  });

  it('tests the shared crate and its dependents, and catches a dependent it broke', async () => {
    const { gate, env } = setUp();
    // core renames add, its own test follows; app (never opened) still calls shop_core::add.
    repo.write('core/src/lib.rs', `pub fn sum(a: i32, b: i32) -> i32 {\n    a + b\n}\n${test('sums', 'assert_eq!(super::sum(1, 2), 3);')}`);
    const command = await build(repo.dir, gate, ['core/src/lib.rs']);
    expect(command).toMatchObject({ argv: ['cargo', 'test', '--no-fail-fast', '-p', 'shop-app', '-p', 'shop-core'], fast: true });
    expect(command.why).toBe('only 2 of 3 crates: shop-app and shop-core (the changed ones and those that depend on them)');
    const result = await run(repo.dir, gate, ['core/src/lib.rs'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/cannot find function `add` in crate `shop_core`/);
  });

  it('lints the same crates with clippy, and catches the dependent it broke', async () => {
    const { gate, env } = setUp('cargo-clippy');
    repo.write('core/src/lib.rs', `pub fn sum(a: i32, b: i32) -> i32 {\n    a + b\n}\n${test('sums', 'assert_eq!(super::sum(1, 2), 3);')}`);
    expect(await build(repo.dir, gate, ['core/src/lib.rs'])).toMatchObject({
      argv: ['cargo', 'clippy', '--all-targets', '--keep-going', '-p', 'shop-app', '-p', 'shop-core', '--', '-D', 'warnings'],
      fast: true,
    });
    const result = await run(repo.dir, gate, ['core/src/lib.rs'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/cannot find function `add` in crate `shop_core`/);
  });

  it('runs the whole workspace for Cargo.lock, the root Cargo.toml, the toolchain file, --all and a single package', async () => {
    const { gate } = setUp();
    for (const file of ['Cargo.lock', 'Cargo.toml', 'rust-toolchain.toml', '.cargo/config.toml']) {
      expect(await build(repo.dir, gate, [file, 'leaf/src/lib.rs'])).toMatchObject({ argv: ['cargo', 'test', '--workspace', '--no-fail-fast'], fast: false, why: `${file} changed, which affects every crate` });
    }
    expect(await build(repo.dir, gate, ['leaf/src/lib.rs'], true)).toMatchObject({ argv: ['cargo', 'test', '--workspace', '--no-fail-fast'], fast: false, why: 'the full run' });
    expect(await build(repo.dir, gate, ['README.rs'])).toMatchObject({ fast: false, why: 'README.rs is in no workspace member' });
    repo.cleanup();
    const single = setUp('cargo-test', { 'Cargo.toml': manifest('solo'), 'src/lib.rs': 'pub fn one() -> i32 {\n    1\n}\n' });
    expect(await build(repo.dir, single.gate, ['src/lib.rs'])).toMatchObject({ fast: false, why: 'a single package: nothing to narrow' });
  });
});

// ripgrep's layout: the root Cargo.toml is a package too, the only default member, so a bare
// `cargo test` tests it alone. grep-walk is a dependency of the root; grep-extra is no one's. Each
// member has a broken test: one tree, built once for every run below.
// No doctests: rustdoc per crate and run would double this file's time, and none is tested here.
const crate = (name: string, deps = '') => `${manifest(name, deps)}\n[lib]\ndoctest = false\n`;
const broken = (name: string, body: string) => `pub fn ${name}() -> i32 {\n    1\n}\n${test(`${name}s`, body)}`;
const ROOT_PACKAGE = {
  '.gitignore': 'target/\n',
  'Cargo.toml': `${crate('rg', 'grep-walk = { path = "crates/walk" }\n')}\n[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n`,
  'src/lib.rs': `pub fn found() -> i32 {\n    grep_walk::walk()\n}\n${test('finds', 'assert_eq!(super::found(), 1);')}`,
  'crates/walk/Cargo.toml': crate('grep-walk'),
  'crates/walk/src/lib.rs': broken('walk', 'assert_eq!(super::walk(), 2);'),
  'crates/extra/Cargo.toml': crate('grep-extra'),
  'crates/extra/src/lib.rs': `${broken('extra', 'assert_eq!(super::extra(), 2);')}\npub fn count(v: &Vec<i32>) -> usize {\n    return v.len();\n}\n`,
};

describe.skipIf(!ready)('a workspace whose root is a package (ripgrep): every member is tested, not only the default one', () => {
  it("a member's broken test fails the stop (-p each member reached, none skipped) and gate check --all (--workspace)", async () => {
    const { gate, env } = setUp('cargo-test', ROOT_PACKAGE);
    // The full run first: it builds every test binary, which the narrowed runs then reuse.
    const all = await run(repo.dir, gate, [], env, true);
    expect(all.status).toBe('failed');
    expect(all.output).toMatch(/tests::extras/);
    expect(all.output).toMatch(/tests::walks/);

    const extra = ['crates/extra/src/lib.rs'];
    expect(await build(repo.dir, gate, extra)).toMatchObject({ argv: ['cargo', 'test', '--no-fail-fast', '-p', 'grep-extra'], fast: true });
    const alone = await run(repo.dir, gate, extra, env);
    expect(alone.status).toBe('failed');
    expect(alone.output).toMatch(/tests::extras/);

    const walk = ['crates/walk/src/lib.rs'];
    expect(await build(repo.dir, gate, walk)).toMatchObject({ argv: ['cargo', 'test', '--no-fail-fast', '-p', 'grep-walk', '-p', 'rg'], fast: true });
    const withRoot = await run(repo.dir, gate, walk, env);
    expect(withRoot.status).toBe('failed');
    expect(withRoot.output).toMatch(/tests::walks/);
  });

  it("clippy's full run lints every member too", async () => {
    const { gate, env } = setUp('cargo-clippy', ROOT_PACKAGE);
    const result = await run(repo.dir, gate, [], env, true);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/crates\/extra\/src\/lib\.rs/);
  });
});
