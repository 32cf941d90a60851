export type Language = 'js' | 'py' | 'go' | 'rust' | 'jvm' | 'ruby' | 'dotnet' | 'php';

const LANGUAGES: Record<string, Language> = {
  js: 'js', jsx: 'js', ts: 'js', tsx: 'js', mjs: 'js', cjs: 'js', mts: 'js', cts: 'js', vue: 'js', svelte: 'js', astro: 'js',
  py: 'py', pyi: 'py',
  go: 'go',
  rs: 'rust',
  java: 'jvm', kt: 'jvm', kts: 'jvm', scala: 'jvm', groovy: 'jvm',
  rb: 'ruby',
  cs: 'dotnet', fs: 'dotnet', vb: 'dotnet',
  php: 'php',
};

const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', '__specs__', 'e2e']);
const TEST_NAME = /(?:^|[._-])(?:test|tests|spec|specs)\.[^.]+$|^test_[^/]*\.py$|^conftest\.py$|(?:Tests?|Spec|(?<=[a-z0-9])IT)\.(?:java|kt|kts|scala|groovy|cs|php)$/;

const LOCKFILES = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', 'deno.lock',
  'Cargo.lock', 'go.sum', 'poetry.lock', 'uv.lock', 'Pipfile.lock', 'composer.lock', 'Gemfile.lock', 'flake.lock',
]);
const CONFIG_EXT = /\.(?:json|jsonc|json5|ya?ml|toml|ini|cfg|conf|sh|bash|mk|env)$/;
const CONFIG_NAME = /^(?:Makefile|GNUmakefile|makefile|[Jj]ustfile|Taskfile|Rakefile|\.envrc|\.env(?:\..+)?|\.flake8|\.pylintrc|pylintrc|\.eslintrc|\.eslintignore|\.npmrc)$/;
const SCRIPT_CONFIG = /(?:^|[.-])(?:config|conf|rc|workspace)\.[cm]?[jt]s$|^\.[\w-]+rc\.[cm]?js$/;
const SECTIONED = /\.(?:toml|ini|cfg)$|^(?:\.flake8|\.pylintrc|pylintrc)$/;
const GATE_FILES = new Set(['gate.config.json', 'gate.local.json']);
const HOOK_FILES = new Set([
  '.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json', '.cursor/hooks.json', '.factory/hooks.json',
  '.gemini/settings.json', '.qwen/settings.json', '.github/hooks/gate.json', '.github/copilot/settings.local.json',
  '.augment/settings.json', '.augment/settings.local.json',
]);

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function languageOf(path: string): Language | undefined {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? LANGUAGES[name.slice(dot + 1).toLowerCase()] : undefined;
}

/** Named or placed like a test by the usual conventions of vitest, jest, mocha, pytest, go, cargo, JUnit. */
export function isTestPath(path: string): boolean {
  if (TEST_NAME.test(baseName(path))) return true;
  const dirs = path.split('/').slice(0, -1);
  return dirs.some((dir) => TEST_DIRS.has(dir));
}

export function isLockfile(path: string): boolean {
  return LOCKFILES.has(baseName(path));
}

/** Where commands and tool settings live: package.json, CI files, tool configs, Makefiles, scripts. */
export function isConfigPath(path: string): boolean {
  const name = baseName(path);
  if (LOCKFILES.has(name)) return false;
  return CONFIG_EXT.test(name) || CONFIG_NAME.test(name) || SCRIPT_CONFIG.test(name) || name === 'conftest.py';
}

/** TOML and INI files: a `[section]` header is the parent of the keys under it. */
export function hasSections(path: string): boolean {
  return SECTIONED.test(baseName(path));
}

export function isGateConfig(path: string): boolean {
  return GATE_FILES.has(baseName(path));
}

/** The harness settings files that `gate init` writes its hook into. */
export function isHookFile(path: string): boolean {
  return HOOK_FILES.has(path);
}

/** Which changed paths are worth looking at, most telling first; `undefined`: none of our business. */
export function priorityOf(path: string): number | undefined {
  if (isGateConfig(path) || isHookFile(path)) return 0;
  if (isTestPath(path)) return 1;
  if (isConfigPath(path)) return 2;
  if (languageOf(path) !== undefined) return 3;
  return undefined;
}
