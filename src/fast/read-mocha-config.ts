import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { MochaFiles } from './js-test-files.js';
import { stripJsComments } from './strip-js-comments.js';

export interface MochaConfig {
  files: MochaFiles;
  /** `require`, `file` and `node-option` import/require/loader entries: loaded by every run. */
  setup: string[];
  /** Where the spec came from, or undefined for mocha's default (`./test`). */
  specFrom: string | undefined;
}

// Mocha's own order: the first name found walking up from the directory wins, then package.json "mocha".
const RC_FILES = ['.mocharc.cjs', '.mocharc.js', '.mocharc.mjs', '.mocharc.yaml', '.mocharc.yml', '.mocharc.jsonc', '.mocharc.json'];
const ALIASES: Record<string, string> = { exclude: 'ignore', r: 'require', n: 'node-option' };
const KEYS = ['spec', 'extension', 'recursive', 'ignore', 'require', 'file', 'node-option'];
// Mocha splits these on commas; spec and ignore are globs and are not split.
const COMMA_LISTS = new Set(['extension', 'require', 'file', 'node-option']);
const NODE_OPTION_FILES = /^(?:require|r|import|loader|experimental-loader)=(.+)$/;

type Options = Record<string, string[] | boolean>;

/**
 * The options of mocha's config (`.mocharc.*` and package.json "mocha", merged as mocha merges
 * them) that decide which files are tests and which load before every test; or why gate can't
 * tell (a JavaScript config is code gate does not run).
 */
export function readMochaConfig(cwd: string): MochaConfig | { why: string } {
  const rc = findUp(cwd, RC_FILES);
  const layers: Array<{ name: string; options: Options }> = [];
  if (rc) {
    const name = relative(cwd, rc) || rc;
    if (/\.[cm]?js$/.test(rc)) return { why: `the mocha config is ${name}, code gate does not run: which files are tests is unknown` };
    const options = /\.ya?ml$/.test(rc) ? parseYamlOptions(readFileSync(rc, 'utf8')) : parseJsonOptions(readFileSync(rc, 'utf8'));
    if (!options) return { why: `${name} could not be read (gate reads plain JSON and simple YAML)` };
    layers.push({ name, options });
  }
  const manifest = findUp(cwd, ['package.json']);
  if (manifest) {
    const options = parseJsonOptions(readFileSync(manifest, 'utf8'), 'mocha');
    if (options && Object.keys(options).length > 0) layers.push({ name: `${relative(cwd, manifest) || 'package.json'} "mocha"`, options });
  }
  const list = (key: string) => layers.flatMap(({ options }) => (Array.isArray(options[key]) ? options[key] : []));
  const spec = list('spec');
  const extension = list('extension');
  const nodeFiles = list('node-option').flatMap((option) => NODE_OPTION_FILES.exec(option)?.[1] ?? []);
  return {
    files: {
      spec: spec.length > 0 ? spec : ['test'],
      extension: extension.length > 0 ? extension : ['js', 'cjs', 'mjs'],
      recursive: layers.map(({ options }) => options['recursive']).find((value) => typeof value === 'boolean') ?? false,
      ignore: list('ignore'),
    },
    setup: [...list('require'), ...list('file'), ...nodeFiles],
    specFrom: layers.find(({ options }) => Array.isArray(options['spec']) && options['spec'].length > 0)?.name,
  };
}

function findUp(from: string, names: string[]): string | undefined {
  for (const name of names) {
    for (let dir = from; ; dir = dirname(dir)) {
      const path = join(dir, name);
      if (statSync(path, { throwIfNoEntry: false })?.isFile()) return path;
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** A JSON (with comments) mocha config, or the `key` object in one (package.json "mocha"). */
export function parseJsonOptions(text: string, key?: string): Options | undefined {
  let value: unknown;
  try {
    value = JSON.parse(stripJsComments(text));
  } catch {
    return undefined;
  }
  const object = key === undefined ? value : isRecord(value) ? (value[key] ?? {}) : undefined;
  if (!isRecord(object)) return undefined;
  const options: Options = {};
  for (const [raw, entry] of Object.entries(object)) {
    const name = ALIASES[raw] ?? raw;
    if (!KEYS.includes(name)) continue;
    if (typeof entry === 'boolean') options[name] = entry;
    else if (typeof entry === 'string' || (Array.isArray(entry) && entry.every((item) => typeof item === 'string'))) options[name] = toList(name, entry);
    else return undefined;
  }
  return options;
}

/**
 * The top-level keys of a YAML mocha config that gate needs, when written plainly: `key: value`,
 * `key: [a, b]` or a `- item` list. Anything fancier (anchors, block scalars) for those keys: undefined.
 */
export function parseYamlOptions(text: string): Options | undefined {
  const options: Options = {};
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const match = /^([\w-]+)\s*:\s*(.*)$/.exec(withoutComment(lines[index] ?? ''));
    if (!match) continue;
    const name = ALIASES[match[1] ?? ''] ?? match[1] ?? '';
    if (!KEYS.includes(name)) continue;
    const value = (match[2] ?? '').trim();
    if (value === '') {
      const items: string[] = [];
      while (index + 1 < lines.length && /^\s+-\s|^\s*(?:#.*)?$/.test(lines[index + 1] ?? '')) {
        const item = /^\s+-\s+(.*)$/.exec(withoutComment(lines[++index] ?? ''))?.[1];
        if (item !== undefined) items.push(unquote(item.trim()));
      }
      if (index + 1 < lines.length && /^\s+\S/.test(lines[index + 1] ?? '')) return undefined;
      options[name] = toList(name, items);
    } else if (value === 'true' || value === 'false') options[name] = value === 'true';
    else if (value.startsWith('[') && value.endsWith(']')) options[name] = toList(name, value.slice(1, -1).split(',').map((item) => unquote(item.trim())).filter(Boolean));
    else if (/^[&*|>{!]/.test(value)) return undefined;
    else options[name] = toList(name, unquote(value));
  }
  return options;
}

function toList(name: string, value: string | string[]): string[] {
  const values = Array.isArray(value) ? value : [value];
  return COMMA_LISTS.has(name) ? values.flatMap((item) => item.split(',')).filter(Boolean) : values;
}

function withoutComment(line: string): string {
  return line.replace(/(^|\s)#.*$/, '');
}

function unquote(value: string): string {
  return /^(['"]).*\1$/.test(value) ? value.slice(1, -1) : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
