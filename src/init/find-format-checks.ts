import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readGolangciConfig } from './golangci-config.js';

/** A formatter check or a linter the project's own scripts, pre-commit config or CI run. */
export interface FormatCheck {
  /** Which formatter (ruff, black, prettier, biome, cargo-fmt, gofmt) or linter (flake8, isort, ruff-check). */
  tool: string;
  /** Where it was found: "Makefile", ".github/workflows/ci.yml", "package.json script lint" … */
  where: string;
  /** The command as written there (trimmed, at most 120 characters). */
  command: string;
}

// A command that checks and does not rewrite: `ruff format` with --check or --diff, `black --check`,
// `prettier --check` / `--list-different`, `cargo fmt --check` (or `-- --check`), `rustfmt --check`, `gofmt -l` / `-d`.
const COMMANDS: Array<[tool: string, pattern: RegExp]> = [
  ['ruff', /\bruff\s+format\b(?=[^\n]*\s--(?:check|diff)\b)/],
  ['black', /\bblack\b(?=[^\n]*\s--check\b)/],
  ['prettier', /\bprettier\b(?=[^\n]*\s(?:--check|--list-different|-c|-l)\b)/],
  ['biome', /\bbiome\s+(?:format|check|ci)\b/],
  ['cargo-fmt', /\bcargo\s+(?:\+\S+\s+)?fmt\b(?=[^\n]*\s--check\b)|\brustfmt\b(?=[^\n]*\s--check\b)/],
  ['gofmt', /\bgofmt\b(?=[^\n]*\s-[a-z]*[ld]\b)/],
  // Linters: each run is a check (isort only with --check-only, --check or --diff; else it rewrites).
  ['flake8', /(?:^|[\s;&|(=])(?:python[\d.]*\s+-m\s+)?flake8(?=\s|$)/],
  ['isort', /(?:^|[\s;&|(=])(?:python[\d.]*\s+-m\s+)?isort\b(?=[^\n]*\s(?:--check-only|--check|-c|--diff)\b)/],
  ['ruff-check', /\bruff\s+check\b/],
];
const LINTERS = new Set(['flake8', 'isort', 'ruff-check']);
// A command that installs a tool names it without running it.
const INSTALLS = /\b(?:pip3?|uv|poetry|pipx|pdm|hatch)\b[^\n]*\b(?:install|add|sync)\b/;

// pre-commit hooks that rewrite files: the run fails when they change one, so CI's `pre-commit run` is a check.
// pre-commit's linter hooks fail on a finding: CI's `pre-commit run` (or prek's) checks with them.
const PRE_COMMIT_HOOKS: Record<string, string> = { 'ruff-format': 'ruff', black: 'black', prettier: 'prettier', 'biome-format': 'biome', 'biome-check': 'biome', fmt: 'cargo-fmt', rustfmt: 'cargo-fmt', 'go-fmt': 'gofmt', flake8: 'flake8', isort: 'isort', ruff: 'ruff-check', 'ruff-check': 'ruff-check' };

const FILES = ['Makefile', 'makefile', 'GNUmakefile', 'justfile', 'Justfile', '.justfile', 'tox.ini', 'noxfile.py', 'Taskfile.yml', '.gitlab-ci.yml'];
const MAX_BYTES = 512 * 1024;

// A project's own check scripts, read even when nothing found names them (a contributor runs them by hand).
const CHECK_SCRIPTS = ['scripts/check', 'scripts/check.sh', 'scripts/lint', 'scripts/lint.sh', 'scripts/ci', 'scripts/ci.sh'];
// A relative path to a script a command runs: `scripts/check`, `./ci/lint.sh`, `bash tools/fmt.sh`.
const SCRIPT_PATH = /(?:^|[\s;&|(="'])(?:\.\/)?((?:[\w.-]+\/)+[\w.-]+)(?=$|[\s;&|)"'])/g;

/**
 * The formatter checks that `dir`'s package.json scripts, task files, pre-commit config and GitHub
 * workflows run, and the scripts they run (starlette's CI runs `scripts/check`, which runs
 * `ruff format --check`), one level down.
 */
export function findFormatChecks(dir: string, scripts: Record<string, string> = {}): FormatCheck[] {
  const sources = Object.entries(scripts).map(([name, script]) => ({ text: script, where: `the package.json script "${name}"` }));
  for (const file of FILES) {
    const text = readSmall(join(dir, file));
    if (text !== undefined) sources.push({ text, where: file });
  }
  for (const file of listDir(join(dir, '.github', 'workflows')).filter((name) => /\.ya?ml$/.test(name))) {
    const text = readSmall(join(dir, '.github', 'workflows', file));
    if (text !== undefined) sources.push({ text, where: `.github/workflows/${file}` });
  }
  const found = sources.flatMap((source) => scan(source.text, source.where));
  const read = new Set<string>();
  for (const source of [...sources, ...CHECK_SCRIPTS.map((path) => ({ text: path, where: '' }))]) {
    for (const path of scriptsRun(source.text)) {
      const text = read.has(path) ? undefined : readSmall(join(dir, path));
      read.add(path);
      if (text !== undefined) found.push(...scan(text, source.where === '' ? path : `${path} (run by ${source.where})`));
    }
  }
  const golangci = readGolangciConfig(dir);
  if (golangci?.linters.includes('gofmt')) found.push({ tool: 'gofmt', where: `${golangci.file} (golangci-lint)`, command: 'gofmt' });
  for (const file of ['.pre-commit-config.yaml', '.pre-commit-config.yml']) {
    const text = readSmall(join(dir, file));
    if (text === undefined) continue;
    for (const match of text.matchAll(/^\s*-?\s*id:\s*["']?([\w-]+)["']?\s*$/gm)) {
      const tool = PRE_COMMIT_HOOKS[match[1] ?? ''];
      if (tool !== undefined) found.push({ tool, where: file, command: `hook ${match[1]}` });
    }
  }
  // One entry per tool: the first place that runs it is reason enough.
  return found.filter((check, index) => found.findIndex((other) => other.tool === check.tool) === index);
}

function scan(text: string, where: string): FormatCheck[] {
  return text.split(/\r?\n/).flatMap((line) => {
    if (/^\s*[#;]/.test(line)) return [];
    // Of a linter, a command that runs it: `pip install flake8 && flake8 .` runs it, `pip install flake8` does not.
    const runs = line.split(/&&|\|\||;/).filter((part) => !INSTALLS.test(part));
    return COMMANDS.filter(([tool, pattern]) => (LINTERS.has(tool) ? runs.some((part) => pattern.test(part)) : pattern.test(line))).map(([tool]) => ({ tool, where, command: commandOf(line) }));
  });
}

/** The relative paths that uncommented lines of `text` run as programs or scripts. */
function scriptsRun(text: string): string[] {
  const lines = text.split(/\r?\n/).filter((line) => !/^\s*#/.test(line));
  return [...new Set(lines.flatMap((line) => [...line.matchAll(SCRIPT_PATH)].map((match) => match[1] ?? '')))].filter((path) => !path.startsWith('.github/') && !/\.(?:ya?ml|json|toml|md|txt|lock|cfg|ini)$/.test(path));
}

function commandOf(line: string): string {
  const text = line.trim().replace(/^(?:-\s*)?(?:run:\s*|commands?\s*=\s*|session\.run\()/, '');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function readSmall(file: string): string | undefined {
  try {
    if (!existsSync(file) || statSync(file).size > MAX_BYTES) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
