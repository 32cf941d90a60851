import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Planner } from './planner.js';
import { readKey } from './read-pytest-config.js';

// mypy's own search, folder by folder up to the repository root: the first that applies wins.
// pyproject.toml and setup.cfg count only with a mypy section (mypy/config_parser.py).
const CONFIG_FILES: Array<[string, RegExp]> = [
  ['mypy.ini', /^\[mypy\]\s*$/m],
  ['.mypy.ini', /^\[mypy\]\s*$/m],
  ['pyproject.toml', /^\[tool\.mypy\]\s*$/m],
  ['setup.cfg', /^\[mypy\]\s*$/m],
];
const SHARED = new Set(['pyproject.toml', 'setup.cfg']);
// Config keys that name what mypy checks; a target on the command line would replace them.
const TARGET_KEYS = ['files', 'modules', 'packages'];

/**
 * A tool whose own cache makes a whole run cheap (mypy): the cache lives under gate's state. mypy
 * checks what the project checks: plain `mypy` when its config names the files, modules or packages
 * (`mypy .` would check everything else too).
 */
export const planIncremental: Planner = async ({ gate, mode }) => {
  const named = gate.tier.run[0] === 'mypy' ? namedTargets(gate.cwd) : undefined;
  const drop = (run: string[]) => (named ? run.filter((word) => word !== '.') : run);
  const because = named ? `; ${named} names what mypy checks` : '';
  if (mode === 'full') {
    const why = `the full run, without the cache${because}`;
    return named && Array.isArray(gate.run) ? { kind: 'full', run: drop(gate.run), why } : { kind: 'full', why };
  }
  return { kind: 'fast', run: drop(gate.tier.run), targets: [], why: `incremental: the tool's cache under gate's state${because}` };
};

/** The config file (relative to `cwd`) whose mypy section names its targets, if the one mypy reads does. */
export function namedTargets(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const [name, header] of CONFIG_FILES) {
      const text = readText(join(dir, name));
      if (text === undefined) continue;
      const section = sectionAfter(text, header);
      if (section === undefined && SHARED.has(name)) continue;
      const sets = TARGET_KEYS.some((key) => readKey(section ?? '', key) !== undefined);
      return sets ? relative(cwd, join(dir, name)) : undefined;
    }
    if (existsSync(join(dir, '.git')) || existsSync(join(dir, '.hg')) || dirname(dir) === dir) return undefined;
  }
}

function sectionAfter(text: string, header: RegExp): string | undefined {
  const found = header.exec(text);
  if (!found) return undefined;
  const body = text.slice(found.index + found[0].length);
  const next = /^\[\[?[^\]\n]*\]\]?\s*$/m.exec(body);
  return next ? body.slice(0, next.index) : body;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
