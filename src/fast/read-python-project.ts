import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { parsePythonImports, type PythonSource } from './parse-python-imports.js';
import { CONFIG_NAMES } from './read-pytest-config.js';

export interface PythonProject {
  /** Every .py file, relative and `/`-separated, read. */
  sources: Map<string, PythonSource>;
  /** Folders below the root holding a pytest config file or setup.py. */
  configDirs: Set<string>;
  /** Text files pytest collects as doctests (`--doctest-glob`, test*.txt by default). */
  doctestFiles: string[];
  /** The console scripts the project declares: a process running one runs the project's Python. */
  scripts: string[];
}

const MAX_ENTRIES = 200_000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const SKIPPED = new Set(['__pycache__', 'node_modules', 'site-packages']);

/**
 * Reads the project's Python files below `root`, skipping hidden folders, virtual environments and
 * caches; undefined when there are too many entries to read at a stop.
 */
export function readPythonProject(root: string, doctestGlobs: string[]): PythonProject | undefined {
  const isDoctest = picomatch(doctestGlobs.map((glob) => (glob.includes('/') ? `**/${glob}` : glob)), { basename: true, dot: true });
  const project: PythonProject = { sources: new Map(), configDirs: new Set(), doctestFiles: [], scripts: [] };
  const pending = [''];
  let seen = 0;
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const entries = readdirSync(join(root, dir), { withFileTypes: true });
    seen += entries.length;
    if (seen > MAX_ENTRIES) return undefined;
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipped(root, path, entry.name)) pending.push(path);
      } else if (entry.isFile()) {
        if (entry.name.endsWith('.py')) project.sources.set(path, readSource(join(root, path)));
        if (dir !== '' && CONFIG_NAMES.includes(entry.name)) project.configDirs.add(dir);
        if (!entry.name.endsWith('.py') && isDoctest(path)) project.doctestFiles.push(path);
      }
    }
  }
  project.scripts = [...readScripts(root), ...[...project.sources.values()].flatMap((source) => source.scripts ?? [])];
  return project;
}

// `[project.scripts]` and `[project.gui-scripts]` keys in pyproject.toml; `name = module:function`
// lines in setup.cfg (console_scripts). Read loosely: an extra name only widens a selection.
function readScripts(root: string): string[] {
  const names: string[] = [];
  for (const [file, table] of [['pyproject.toml', /^\[project\.(?:gui-)?scripts\]/], ['setup.cfg', /^\[options\.entry_points\]/]] as const) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    let inside = false;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (/^\s*\[/.test(line)) inside = table.test(line.trim());
      const name = inside ? /^\s*"?([\w.-]+)"?\s*=\s*"?[A-Za-z_][\w.]*\s*:/.exec(line)?.[1] : undefined;
      if (name) names.push(name);
    }
  }
  return names;
}

function skipped(root: string, path: string, name: string): boolean {
  return name.startsWith('.') || SKIPPED.has(name) || name.endsWith('.egg-info') || existsSync(join(root, path, 'pyvenv.cfg'));
}

function readSource(file: string): PythonSource {
  if (statSync(file).size > MAX_FILE_BYTES) return { imports: [], opaque: 'is too large to read at a stop' };
  return parsePythonImports(readFileSync(file, 'utf8'));
}
