import type { ResolvedGate } from '../config/load-config.js';
import { canonical } from '../tamper/config-meaning.js';

/**
 * Keys of package.json that no test, type check or lint run reads: what describes or publishes the
 * package. Anything not listed (dependencies, `main`/`exports`/`imports`/`type`/`bin`, `name` for
 * self-references, `version` a test may import, a runner's or a linter's config key …) may change
 * what a gate does: its change is the full run, as a lockfile's.
 */
const INERT_KEYS = new Set(['description', 'keywords', 'author', 'contributors', 'maintainers', 'license', 'homepage', 'repository', 'bugs', 'funding', 'private', 'publishConfig', 'files']);
// The scripts `npm test` runs: a gate may run them, and the node:test and mocha tiers read `test`'s flags.
const TEST_SCRIPTS = new Set(['test', 'pretest', 'posttest']);
// Programs that run a package script (or a task that may be one): with them any script is the gate's.
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'turbo', 'nx', 'lerna', 'corepack', 'wireit', 'make', 'just']);

/**
 * What an edit to a package.json changed, compared parsed (key order and formatting change
 * nothing): the top-level keys that differ, each script by name (`scripts.lint`). Undefined when
 * either side is not a JSON object.
 */
export function manifestKeysChanged(before: string, after: string): string[] | undefined {
  const old = parse(before);
  const now = parse(after);
  if (old === undefined || now === undefined) return undefined;
  const changed: string[] = [];
  for (const key of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort()) {
    if (canonical(old[key]) === canonical(now[key])) continue;
    const [was, is] = [old[key], now[key]];
    if (key === 'scripts' && isObject(was ?? {}) && isObject(is ?? {})) changed.push(...manifestKeysChanged(JSON.stringify(was ?? {}), JSON.stringify(is ?? {}))?.map((name) => `scripts.${name}`) ?? ['scripts']);
    else changed.push(key);
  }
  return changed;
}

/** Whether a package.json change of these keys leaves what `gate` runs as it was: no key it may read changed. */
export function manifestChangeLeaves(gate: Pick<ResolvedGate, 'run' | 'shell'>, keys: readonly string[]): boolean {
  const scriptsMatter = runsScripts(gate.run);
  return keys.every((key) => INERT_KEYS.has(key) || (key.startsWith('scripts.') && !TEST_SCRIPTS.has(key.slice('scripts.'.length)) && !scriptsMatter));
}

function runsScripts(run: string | string[]): boolean {
  const words = typeof run === 'string' ? run.split(/[\s;&|()]+/) : run;
  const programs = words.map((word) => word.replace(/^.*\//, '').replace(/\.(?:cmd|exe|js|cjs|mjs)$/, ''));
  return programs.some((program) => SCRIPT_RUNNERS.has(program)) || (programs.includes('node') && words.some((word) => word === '--run' || word.startsWith('--run=')));
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
