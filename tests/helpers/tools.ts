import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from './temp-repo.js';

// Where scripts/install-tools.mjs puts (or finds) the real tools the Python, Go and Rust presets run.
const windows = process.platform === 'win32';
const realHome = homedir();
const cargoHome = process.env['CARGO_HOME'] ?? join(realHome, '.cargo');
const rustupHome = process.env['RUSTUP_HOME'] ?? join(realHome, '.rustup');
const goRoot = process.env['GOROOT'];

function toolDirs(): string[] {
  const candidates = [
    join(PROJECT_ROOT, '.cache', 'tools', 'py', windows ? 'Scripts' : 'bin'),
    join(PROJECT_ROOT, '.cache', 'tools', 'npm-bin'),
    ...(goRoot ? [join(goRoot, 'bin')] : []),
    '/usr/lib/go/bin',
    '/usr/local/go/bin',
    join(cargoHome, 'bin'),
  ];
  return candidates.filter((dir) => existsSync(dir));
}

/**
 * `base` (the process env by default) with the tools' folders first on PATH. A hermetic HOME hides
 * rustup's toolchains, so RUSTUP_HOME is pinned to the real one when the base does not set it;
 * caches (GOCACHE, GOPATH, CARGO_TARGET_DIR …) are left to each test.
 */
export function toolEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const path = [...toolDirs(), ...(base['PATH'] ?? '').split(delimiter)].filter(Boolean).join(delimiter);
  const env: NodeJS.ProcessEnv = { ...base, PATH: path };
  if (env['RUSTUP_HOME'] === undefined && existsSync(rustupHome)) env['RUSTUP_HOME'] = rustupHome;
  return env;
}

const found = new Map<string, string | undefined>();

/** Whether `name` is an executable file on toolEnv()'s PATH (for `it.skipIf(!hasTool('go'))`). */
export function hasTool(name: string): boolean {
  return toolPath(name) !== undefined;
}

/** The file `name` runs on toolEnv()'s PATH (a wrapper's `exec` target), or undefined. */
export function toolPath(name: string): string | undefined {
  if (found.has(name)) return found.get(name);
  const extensions = windows ? (process.env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';') : [''];
  const dirs = (toolEnv()['PATH'] ?? '').split(delimiter).filter(Boolean);
  const result = dirs.flatMap((dir) => extensions.map((ext) => join(dir, `${name}${ext}`))).find(isFile);
  found.set(name, result);
  return result;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
