import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const GOLANGCI_CONFIGS = ['.golangci.yml', '.golangci.yaml', '.golangci.toml', '.golangci.json'];

// What golangci-lint runs when its config enables nothing and disables no default (v1; v2 "standard").
const DEFAULT_LINTERS = ['errcheck', 'govet', 'ineffassign', 'staticcheck', 'unused'];

export interface GolangciConfig {
  file: string;
  /** The linters and formatters it runs: the ones it enables, and golangci-lint's defaults unless it turns them off. */
  linters: string[];
}

/**
 * The linters a golangci-lint config turns on (v1 `linters.enable`, `disable-all`; v2 `linters.default`,
 * `formatters.enable`), read by a line scanner: YAML's and TOML's lists, and JSON. Undefined: no config.
 */
export function readGolangciConfig(dir: string): GolangciConfig | undefined {
  const file = GOLANGCI_CONFIGS.find((name) => existsSync(join(dir, name)));
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(join(dir, file), 'utf8');
  } catch {
    return undefined;
  }
  const { enabled, noDefaults } = file.endsWith('.json') ? readJson(text) : readLines(text, file.endsWith('.toml'));
  return { file, linters: [...new Set([...(noDefaults ? [] : DEFAULT_LINTERS), ...enabled])] };
}

function readJson(text: string): { enabled: string[]; noDefaults: boolean } {
  try {
    const value: unknown = JSON.parse(text);
    const section = (name: string) => (typeof value === 'object' && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined);
    const field = (object: unknown, key: string) => (typeof object === 'object' && object !== null && key in object ? (object as Record<string, unknown>)[key] : undefined);
    const names = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
    const linters = section('linters');
    const noDefaults = field(linters, 'disable-all') === true || field(linters, 'default') === 'none';
    return { enabled: [...names(field(linters, 'enable')), ...names(field(section('formatters'), 'enable'))], noDefaults };
  } catch {
    return { enabled: [], noDefaults: false };
  }
}

/** YAML (`linters:` / `  enable:` / `    - gofmt`, or `enable: [a, b]`) and TOML (`[linters]` / `enable = ["a", "b"]`). */
function readLines(text: string, toml: boolean): { enabled: string[]; noDefaults: boolean } {
  const enabled: string[] = [];
  let noDefaults = false;
  let section = '';
  let listIndent = -1;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '');
    if (/^\s*(#|$)/.test(line)) continue;
    const indent = line.length - line.trimStart().length;
    const header = toml ? /^\s*\[([\w.-]+)\]\s*$/.exec(line)?.[1] : indent === 0 ? /^([\w-]+):/.exec(line)?.[1] : undefined;
    if (header !== undefined) {
      section = header;
      listIndent = -1;
      continue;
    }
    if (section !== 'linters' && section !== 'formatters') continue;
    if (/^\s*(?:disable-all\s*[:=]\s*true|default\s*[:=]\s*["']?none)\b/.test(line)) noDefaults = true;
    const key = /^\s*enable\s*[:=]\s*(.*)$/.exec(line);
    if (key) {
      const inline = key[1] ?? '';
      enabled.push(...names(inline));
      listIndent = inline.trim() === '' || (inline.includes('[') && !inline.includes(']')) ? indent : -1;
      continue;
    }
    if (listIndent < 0) continue;
    const item = /^\s*-\s*["']?([\w-]+)["']?\s*$/.exec(line);
    if (item && indent >= listIndent) enabled.push(item[1] ?? '');
    else if (toml && !line.includes('=')) {
      enabled.push(...names(line));
      if (line.includes(']')) listIndent = -1;
    } else if (indent <= listIndent) listIndent = -1;
  }
  return { enabled, noDefaults };
}

function names(text: string): string[] {
  return [...text.matchAll(/["']?([A-Za-z][\w-]*)["']?/g)].map((match) => match[1] ?? '');
}
