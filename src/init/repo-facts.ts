import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config-problem.js';
import { parseJson } from '../config/parse-json.js';
import { stripJsComments } from '../fast/strip-js-comments.js';
import { type FormatCheck, findFormatChecks } from './find-format-checks.js';

export const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
export type DependencyField = (typeof DEPENDENCY_FIELDS)[number];

export interface PackageJsonFacts {
  /** Package names per dependency field that lists any. */
  dependencies: Partial<Record<DependencyField, string[]>>;
  scripts: Record<string, string>;
  /** Top-level keys, for tools configured inside package.json (`jest`, `eslintConfig` …). */
  keys: string[];
  /** The raw `packageManager` field, like "pnpm@9.1.0". */
  packageManager: string | undefined;
}

/** What the top of a project directory says about its tools; no deep scan. */
export interface RepoFacts {
  /** Names of the entries at the project root (lockfiles, configs, go.mod, Cargo.toml, .pnp.cjs …), sorted. */
  files: string[];
  packageJson: PackageJsonFacts | undefined;
  /**
   * Section headers by file name (`pyproject.toml`: "tool.ruff" …; `setup.cfg`, `tox.ini`: "tool:pytest" …;
   * `turbo.json`, `nx.json`: their keys two levels deep, "tasks.test", "targetDefaults.lint" …).
   */
  sections: Record<string, string[]>;
  /** The formatter checks the project's own scripts, task files and CI run (`ruff format --check` …). */
  formatChecks?: FormatCheck[];
  /** pyproject.toml's [dependency-groups]: each group's package names (what `uv sync --group NAME` installs). */
  dependencyGroups?: DependencyGroup[];
}

export interface DependencyGroup {
  name: string;
  tools: string[];
}

export function readRepoFacts(dir: string): RepoFacts {
  const files = readdirSync(dir).sort();
  const sections: Record<string, string[]> = {};
  let dependencyGroups: DependencyGroup[] = [];
  for (const [file, style] of [['pyproject.toml', 'toml'], ['setup.cfg', 'ini'], ['tox.ini', 'ini']] as const) {
    if (!files.includes(file)) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    sections[file] = scanSectionHeaders(text, style);
    if (file === 'pyproject.toml') dependencyGroups = scanDependencyGroups(text);
  }
  for (const file of ['turbo.json', 'nx.json']) {
    if (files.includes(file)) sections[file] = jsonKeys(readFileSync(join(dir, file), 'utf8'));
  }
  const packagePath = join(dir, 'package.json');
  const packageJson = existsSync(packagePath) ? readPackageJson(packagePath) : undefined;
  return { files, packageJson, sections, formatChecks: findFormatChecks(dir, packageJson?.scripts), ...(dependencyGroups.length > 0 ? { dependencyGroups } : {}) };
}

function readPackageJson(path: string): PackageJsonFacts {
  const parsed = parseJson(path, readFileSync(path, 'utf8'));
  if ('problem' in parsed) throw new ConfigError([parsed.problem]);
  const manifest = parsed.value;
  if (!isRecord(manifest)) throw new ConfigError([{ file: path, path: '', message: 'is not a JSON object' }]);
  const dependencies: Partial<Record<DependencyField, string[]>> = {};
  for (const field of DEPENDENCY_FIELDS) {
    const listed = manifest[field];
    if (isRecord(listed) && Object.keys(listed).length > 0) dependencies[field] = Object.keys(listed).sort();
  }
  const scripts: Record<string, string> = {};
  const listedScripts = manifest['scripts'];
  if (isRecord(listedScripts)) {
    for (const [name, command] of Object.entries(listedScripts)) if (typeof command === 'string') scripts[name] = command;
  }
  const packageManager = manifest['packageManager'];
  return {
    dependencies,
    scripts,
    keys: Object.keys(manifest).sort(),
    packageManager: typeof packageManager === 'string' ? packageManager : undefined,
  };
}

/** "tasks", "tasks.test" …: the keys and the keys of object values, of a JSON file that may hold comments (turbo.json does). */
function jsonKeys(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(stripJsComments(text.replace(/^\uFEFF/, '')).replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return []; // Unreadable: detection falls back to what package.json says.
  }
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...(isRecord(inner) ? Object.keys(inner).map((child) => `${key}.${child}`) : [])]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// A line scanner, not a parser: only `[table]` / `[[array.table]]` headers matter for detection, and a
// header's key is either bare or quoted, which keeps lines inside multi-line arrays (`["a", "b"]`) out.
const HEADER = /^\s*\[\[?([^[\]]+)\]\]?\s*(?:[#;].*)?$/;
const TOML_KEY = /^(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')$/;

/** Section headers in file order; TOML dotted keys are normalised (`[ tool . "ruff" ]` → "tool.ruff"). */
export function scanSectionHeaders(text: string, style: 'toml' | 'ini'): string[] {
  const headers: string[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const inner = HEADER.exec(line)?.[1]?.trim();
    if (!inner) continue;
    if (style === 'ini') {
      headers.push(inner);
      continue;
    }
    const keys = inner.split('.').map((key) => key.trim());
    if (keys.every((key) => TOML_KEY.test(key))) headers.push(keys.map((key) => key.replace(/^["']|["']$/g, '')).join('.'));
  }
  return headers;
}

/** `[dependency-groups]`'s groups (PEP 735), by a line scanner: `NAME = [` opens one, each `"package…"` line is a member. */
export function scanDependencyGroups(text: string): DependencyGroup[] {
  const groups: DependencyGroup[] = [];
  let inSection = false;
  let current: DependencyGroup | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (HEADER.test(line)) {
      inSection = line.trim() === '[dependency-groups]';
      current = undefined;
      continue;
    }
    if (!inSection) continue;
    const opened = /^\s*["']?([\w.-]+)["']?\s*=\s*\[(.*)$/.exec(line);
    if (opened) {
      current = { name: opened[1] ?? '', tools: [] };
      groups.push(current);
    }
    const body = opened ? (opened[2] ?? '') : line;
    for (const item of body.matchAll(/["']([A-Za-z0-9][\w.-]*)/g)) current?.tools.push((item[1] ?? '').toLowerCase());
    if (/\]\s*(?:#.*)?$/.test(body)) current = undefined;
  }
  return groups;
}
