import { readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { detectManager, managerCommands, type PackageManager } from './package-manager.js';

/** How the running gate was installed, as far as the hints it prints are concerned. */
export type Install = { kind: 'global' } | { kind: 'npx' } | { kind: 'local'; root: string };

/**
 * From the path the running script was started by (process.argv[1], not resolved: a global
 * install's bin is a link into its own node_modules): npx's cache (`_npx`), a node_modules or
 * Yarn folder of the project or a folder above it (a hoisted install), else global. `places` are
 * where the project may be: the working directory, and the harness's project directory (a hook
 * runs wherever the agent last cd-ed).
 */
export function classifyInstall(scriptPath: string | undefined, places: string[], real: (path: string) => string = (path) => path): Install {
  if (!scriptPath) return { kind: 'global' };
  if (scriptPath.includes(`${sep}_npx${sep}`)) return { kind: 'npx' };
  const at = [`${sep}node_modules${sep}`, `${sep}.yarn${sep}`].map((folder) => scriptPath.indexOf(folder)).filter((index) => index > 0);
  if (at.length === 0) return { kind: 'global' };
  const root = real(scriptPath.slice(0, Math.min(...at)));
  // A global install run by its full path, or pnpm's global store, is not this project's.
  return places.some((place) => place === root || place.startsWith(`${root}${sep}`)) ? { kind: 'local', root } : { kind: 'global' };
}

/**
 * What the user types to run gate here: `gate` for a global install (`npx gate` would fetch an
 * unrelated package named gate), the project's manager for a local one, the same pinned package
 * for npx.
 */
export function gateCommandFor(install: Install, manager: PackageManager, version: string): string {
  if (install.kind === 'global') return 'gate';
  if (install.kind === 'npx') return `npx stopgate@${version}`;
  return `${managerCommands(manager).exec} gate`;
}

let known: string | undefined;

/** `gate`, `npx gate`, `pnpm exec gate` …, for the running gate; found once, when a hint is printed. */
export function gateCommand(): string {
  if (known !== undefined) return known;
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const places = [process.cwd(), process.env['CLAUDE_PROJECT_DIR'] ?? ''].filter((place) => place !== '').map(real);
  const install = classifyInstall(process.argv[1], places, real);
  known = gateCommandFor(install, install.kind === 'local' ? detectManager(install.root) : 'npm', install.kind === 'npx' ? npxVersion(process.argv[1] ?? '') : '');
  return known;
}

/** A hint's command line: `gateHint('doctor')` → `gate doctor`, `npx gate doctor`, `pnpm exec gate doctor` … */
export function gateHint(args: string): string {
  return `${gateCommand()} ${args}`;
}

/** The version npx runs, from its cache folder (`_npx/<hash>/node_modules/stopgate`). */
function npxVersion(scriptPath: string): string {
  const modules = scriptPath.indexOf(`${sep}node_modules${sep}`);
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(scriptPath.slice(0, modules), 'node_modules', 'stopgate', 'package.json'), 'utf8'));
    if (typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string') return manifest.version;
  } catch {
    // Unreadable: the unpinned name still runs gate.
  }
  return 'latest';
}
