import { expandWorkspaceGlobs } from './expand-workspace-globs.js';
import { readTextFile } from './read-text-file.js';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspaceGraph, WorkspacePackage } from './graph-types.js';

const FILE = 'pyproject.toml';
const WORKSPACE_TABLE = 'tool.uv.workspace';
const HEADER = /^\s*\[\[?([^[\]]+)\]\]?\s*(?:#.*)?$/;

/**
 * A uv workspace: the root pyproject.toml's `[tool.uv.workspace]` `members` globs less its
 * `exclude` globs, each a folder with a pyproject.toml (the root's own project is no member: its
 * files belong to the root). A member depends on another when its dependencies (`[project]`,
 * optional ones, `[dependency-groups]`) name it or its `[tool.uv.sources]` has it with
 * `workspace = true`. Read loosely, without a TOML parser: an extra edge only runs more.
 */
export function readUvWorkspace(root: string): WorkspaceGraph {
  const manifest = readTextFile(root, FILE);
  if (manifest === undefined) {
    throw new WorkspaceError(FILE, `does not exist at ${root}, so there is no uv workspace to read; read the workspace from the folder that holds the root pyproject.toml, or set "workspaces" to the kind this repo uses`);
  }
  const workspace = tomlTables(manifest).get(WORKSPACE_TABLE);
  if (workspace === undefined) {
    throw new WorkspaceError(FILE, 'has no [tool.uv.workspace] table, so it is a single project, not a uv workspace; add [tool.uv.workspace] with members = [...], or set "workspaces" to the kind this repo uses');
  }
  const globs = [...stringsOf(workspace, 'members'), ...stringsOf(workspace, 'exclude').map((glob) => `!${glob}`)];
  const dirs = expandWorkspaceGlobs(root, globs, FILE);
  const members = dirs.map((dir) => ({ dir, ...readMember(readTextFile(root, `${dir}/${FILE}`) ?? '', dir) }));
  const byName = new Map(members.map((member) => [member.name, member.dir]));
  const packages: WorkspacePackage[] = members.map((member) => {
    const dependsOn = member.uses.flatMap((name) => byName.get(name) ?? []).filter((dir) => dir !== member.dir);
    return { dir: member.dir, name: member.name, dependsOn: [...new Set(dependsOn)].sort() };
  });
  // The root's own project (python-sdk's `mcp`, which its examples use) is no member, but members depend on it.
  const rootName = stringsOf(tomlTables(manifest).get('project') ?? '', 'name')[0];
  const dependents = rootName === undefined ? [] : members.filter((member) => member.uses.includes(normaliseName(rootName))).map((member) => member.dir);
  if (rootName === undefined || dependents.length === 0) return { kind: 'uv', root, packages };
  return { kind: 'uv', root, packages, rootProject: { name: rootName, sources: ['**/*.py', '**/*.pyi'], dependents } };
}

/** Whether a pyproject.toml has `[tool.uv.workspace]`. */
export function hasUvWorkspace(manifest: string): boolean {
  return tomlTables(manifest).has(WORKSPACE_TABLE);
}

/** A member's normalised name and the normalised names of what it depends on or takes from the workspace. */
function readMember(text: string, dir: string): { name: string; uses: string[] } {
  const tables = tomlTables(text);
  const project = tables.get('project') ?? '';
  const name = normaliseName(stringsOf(project, 'name')[0] ?? dir.split('/').at(-1) ?? dir);
  const requirements = [
    ...stringsOf(project, 'dependencies'),
    ...valuesOf(tables.get('project.optional-dependencies') ?? ''),
    ...valuesOf(tables.get('dependency-groups') ?? ''),
    ...stringsOf(tables.get('tool.uv') ?? '', 'dev-dependencies'),
  ];
  const fromRequirements = requirements.flatMap((requirement) => /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1] ?? []);
  const sources = [...(tables.get('tool.uv.sources') ?? '').matchAll(/^\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*=\s*\{[^}]*\bworkspace\s*=\s*true/gm)].map((match) => match[1] ?? '');
  return { name, uses: [...fromRequirements, ...sources].map(normaliseName) };
}

// PEP 503: names compare case-insensitively, with runs of `-`, `_` and `.` alike.
function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** Each table's body by its dotted name (`[ tool . "uv" ]` → tool.uv); a name seen twice keeps both bodies. */
function tomlTables(text: string): Map<string, string> {
  const tables = new Map<string, string>();
  let name = '';
  let body: string[] = [];
  const flush = () => tables.set(name, `${tables.get(name) ?? ''}${body.join('\n')}\n`);
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const header = HEADER.exec(line)?.[1];
    // A line inside a multi-line array (`  "a",`) has quotes or a comma, never a bare [key] alone.
    if (header !== undefined && !/^\s*["']/.test(header)) {
      flush();
      name = header
        .split('.')
        .map((key) => key.trim().replace(/^["']|["']$/g, ''))
        .join('.');
      body = [];
    } else body.push(line);
  }
  flush();
  return tables;
}

/** The strings of `key = "…"` or `key = [ "…", … ]` in a table's body (a multi-line array too). */
function stringsOf(body: string, key: string): string[] {
  const start = new RegExp(`^\\s*["']?${key.replace(/[.-]/g, '\\$&')}["']?\\s*=\\s*`, 'm').exec(body);
  if (!start) return [];
  return quoted(valueAt(body, start.index + start[0].length));
}

/** Every key's strings in a table of arrays (`[dependency-groups]`, `[project.optional-dependencies]`). */
function valuesOf(body: string): string[] {
  return [...body.matchAll(/^\s*["']?[A-Za-z0-9._-]+["']?\s*=\s*/gm)].flatMap((match) => quoted(valueAt(body, match.index + match[0].length)));
}

// An array runs to its closing bracket (strings may hold brackets: "pkg[extra]"); anything else to the line's end.
function valueAt(body: string, from: number): string {
  if (body[from] !== '[') return body.slice(from).split('\n')[0] ?? '';
  let quote: string | undefined;
  for (let index = from + 1; index < body.length; index++) {
    const char = body[index];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '#') index = body.indexOf('\n', index) === -1 ? body.length : body.indexOf('\n', index);
    else if (char === ']') return body.slice(from, index + 1);
  }
  return body.slice(from);
}

function quoted(value: string): string[] {
  return [...value.replace(/#[^\n"']*$/gm, '').matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((match) => match[1] ?? match[2] ?? '');
}
