import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { stoppedEarly } from '../../src/verdict/partial-run.js';
import { requireTools } from '../helpers/fast-tier.js';
import { makeRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

const ready = requireTools('cargo', 'cargo-clippy');
const preset = JSON.parse(readFileSync(new URL('../../presets/cargo-clippy.json', import.meta.url), 'utf8')) as { run: string[]; filter: string };

const manifest = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`;
// Two crates, each already red under `-D warnings`, neither depending on the other (ripgrep, issue 37).
const repo = makeRepo(
  {
    '.gitignore': 'target/\n',
    'Cargo.toml': '[workspace]\nmembers = ["alpha", "beta"]\nresolver = "2"\n',
    'alpha/Cargo.toml': manifest('alpha'),
    'alpha/src/lib.rs': 'pub fn count(v: &Vec<i32>) -> usize {\n    return v.len();\n}\n',
    'beta/Cargo.toml': manifest('beta'),
    'beta/src/lib.rs': 'pub fn empty(v: &[i32]) -> bool {\n    v.len() == 0\n}\n',
  },
  { git: false },
);
afterAll(() => repo.cleanup());

// One job: cargo starts no new crate once one fails, and with more crates than cores (ripgrep has
// nine) most are never started. With one job that is certain, not a race between two.
const env = {
  ...repo.env,
  PATH: toolEnv()['PATH'] ?? '',
  RUSTUP_HOME: toolEnv()['RUSTUP_HOME'] ?? '',
  CARGO_TARGET_DIR: join(repo.dir, 'target'),
  CARGO_NET_OFFLINE: 'true',
  CARGO_TERM_COLOR: 'never',
  CARGO_INCREMENTAL: '0',
  CARGO_BUILD_JOBS: '1',
};

function clippy(argv: string[]) {
  const [command = 'cargo', ...args] = argv;
  const result = spawnSync(command, args, { cwd: repo.dir, env, encoding: 'utf8', timeout: 240_000 });
  const output = `${result.stdout}${result.stderr}`;
  const crates = new Set(filterOutput(preset.filter, output).failures.map((failure) => failure.id.split('/')[0]));
  return { status: result.status, output, crates: [...crates].sort() };
}

describe.skipIf(!ready)('cargo clippy: every crate that fails, not only the first', () => {
  it("the preset's command reports both crates' lints; without --keep-going, one crate's only", () => {
    expect(preset.run).toContain('--keep-going');
    const full = clippy(preset.run);
    expect(full.status).toBe(101);
    expect(full.crates).toEqual(['alpha', 'beta']);
    expect(stoppedEarly(preset.run, 'cargo-clippy', preset.filter, full.output)).toBe(false);

    const withoutKeepGoing = preset.run.filter((arg) => arg !== '--keep-going');
    const partial = clippy(withoutKeepGoing);
    expect(partial.status).toBe(101);
    expect(partial.crates).toHaveLength(1);
    // Such a run is evidence only for the lints it showed.
    expect(stoppedEarly(withoutKeepGoing, undefined, preset.filter, partial.output)).toBe(true);
  });
});
