// Rust: regex-syntax 0.6.27 (the regex crate's parser; no dependencies, ~30 modules with their unit
// tests, large Unicode tables), from Debian's librust-regex-syntax-dev, which ships the crate's
// sources under /usr/share/cargo/registry. It predates today's clippy by years: the lints it trips
// before any edit are allowed in its Cargo.toml ([lints], found by running clippy once), so that a
// red stop is the edit's. Built offline; a single crate, so its fast tier can only be the full run.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debianPackage, run } from './fetch.mjs';

const PACKAGE = 'librust-regex-syntax-dev';
const VERSION = '0.6.27-1';

/** The lints clippy reports on the tree as it is; throws on a real compile error. */
function lintsFired(dir, env) {
  const output = run('cargo', ['clippy', '--all-targets', '--message-format=json', '--quiet'], { cwd: dir, env }, [0, 101]);
  const lints = new Set();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.reason !== 'compiler-message' || !['warning', 'error'].includes(message.message.level)) continue;
    const code = message.message.code?.code;
    if (code) lints.add(code);
    else if (message.message.level === 'error' && !/aborting due to|could not compile/.test(message.message.message)) {
      throw new Error(`regex-syntax does not build: ${message.message.rendered}`);
    }
  }
  return [...lints].sort();
}

function allowLints(dir, lints) {
  const rust = lints.filter((lint) => !lint.startsWith('clippy::'));
  const clippy = lints.filter((lint) => lint.startsWith('clippy::')).map((lint) => lint.slice('clippy::'.length));
  const table = (name, names) => (names.length === 0 ? '' : `\n[lints.${name}]\n${names.map((lint) => `${lint} = "allow"`).join('\n')}\n`);
  const manifest = join(dir, 'Cargo.toml');
  writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}\n# gate bench: what this 2022 crate trips in today's clippy, before any edit.${table('rust', rust)}${table('clippy', clippy)}`);
}

export const regexSyntax = {
  id: 'regex-syntax',
  stack: 'rust',
  title: 'regex-syntax 0.6.27',
  origin: `Debian ${PACKAGE} ${VERSION}`,
  needs: ['cargo', 'cargo-clippy'],
  fetch: ({ cache }) => join(debianPackage(cache, PACKAGE, VERSION), 'usr', 'share', 'cargo', 'registry', 'regex-syntax-0.6.27'),
  prepare(source, dir, { env }) {
    cpSync(source, dir, { recursive: true });
    rmSync(join(dir, '.cargo-checksum.json'), { force: true });
    writeFileSync(join(dir, '.gitignore'), '/target\n');
    const scratch = mkdtempSync(join(tmpdir(), 'gate-bench-clippy-'));
    const cargoEnv = { ...env, CARGO_HOME: join(scratch, 'cargo-home'), CARGO_TARGET_DIR: join(scratch, 'target'), CARGO_NET_OFFLINE: 'true' };
    try {
      run('cargo', ['generate-lockfile', '--offline'], { cwd: dir, env: cargoEnv });
      const allowed = [];
      for (let round = 0; round < 3; round++) {
        const fired = lintsFired(dir, cargoEnv);
        if (fired.includes('clippy::eq_op')) throw new Error('regex-syntax trips clippy::eq_op before any edit: the bench\'s clippy edits need another lint');
        if (fired.length === 0) return `Cargo.toml [lints] allows what clippy ${allowed.length === 0 ? 'found nothing of' : `reports before any edit: ${allowed.join(', ')}`}`;
        allowLints(dir, fired);
        allowed.push(...fired);
      }
      throw new Error('regex-syntax: clippy still reports lints after allowing them three times');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  env: (caches) => ({ CARGO_HOME: join(caches, 'cargo-home'), CARGO_NET_OFFLINE: 'true' }),
  gates: [
    {
      preset: 'cargo-test',
      first: {
        what: "src/lib.rs: '~' is no longer a meta character",
        file: 'src/lib.rs',
        replace: ["| '#' | '&' | '-' | '~' => true,", "| '#' | '&' | '-' => true,"],
        expect: [/escape_meta/],
      },
      second: {
        what: "src/lib.rs: is_word_byte forgets b'a'",
        file: 'src/lib.rs',
        replace: ["b'_' | b'0'..=b'9' | b'a'..=b'z'", "b'_' | b'0'..=b'9' | b'b'..=b'z'"],
        expect: [/word_byte/],
      },
    },
    {
      preset: 'cargo-clippy',
      first: {
        what: 'src/lib.rs: x == x (clippy::eq_op)',
        file: 'src/lib.rs',
        append: '\n/// Always true.\npub fn gate_bench_always_true(x: u32) -> bool {\n    x == x\n}\n',
        expect: [/src\/lib\.rs:\d+:\d+/, /equal expressions/],
      },
      second: {
        what: 'src/utf8.rs: x != x (clippy::eq_op)',
        file: 'src/utf8.rs',
        append: '\n/// Always false.\npub fn gate_bench_never(x: u8) -> bool {\n    x != x\n}\n',
        expect: [/src\/utf8\.rs:\d+:\d+/, /equal expressions/],
      },
    },
  ],
};
