/**
 * Does a shell command run tests, a typecheck or a linter? Read from the command's words, as a person
 * would: every program of presets/*.json (tests/unit/history-check-command.test.ts holds them to it),
 * directly, through a runner (npx, pnpm exec, uv run, python -m …) or a package script.
 */

/** A program that checks whatever it is given: the presets' programs and their kin. */
const CHECK_PROGRAMS = new Set(['vitest', 'jest', 'mocha', 'pytest', 'py.test', 'tsc', 'vue-tsc', 'eslint', 'biome', 'ruff', 'mypy', 'pyright', 'basedpyright', 'black', 'flake8', 'isort', 'prettier', 'tox', 'nox', 'phpunit', 'rspec', 'ava', 'tap', 'playwright', 'clippy-driver', 'gofmt']);
/** A program whose subcommand decides: `go test`, `cargo clippy`, `node --test`. */
const CHECK_SUBCOMMANDS = new Map<string, Set<string>>([
  ['go', new Set(['test', 'vet'])],
  ['cargo', new Set(['test', 'clippy', 'check', 'nextest', 'fmt'])],
  ['node', new Set(['--test'])],
  ['deno', new Set(['test', 'check', 'lint'])],
  ['bun', new Set(['test'])],
  ['golangci-lint', new Set(['run'])],
  ['dotnet', new Set(['test'])],
  ['mvn', new Set(['test', 'verify'])],
  ['gradle', new Set(['test', 'check'])],
  ['gradlew', new Set(['test', 'check'])],
  ['make', new Set(['test', 'check', 'lint', 'typecheck'])],
  ['gate', new Set(['check', 'ci'])],
  ['stopgate', new Set(['check', 'ci'])],
]);
/** Task runners: the task's name decides (`npm test`, `nx run-many --targets=test`, `turbo run lint`). */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'nx', 'turbo', 'just', 'task']);
const CHECK_SCRIPT = /^(?:--targets?=)?(?:test|tests|lint|typecheck|type-check|check|check-types|tsc|verify)(?:[:,-].*)?$/;
const TASK_VERBS = new Set(['run', 'run-script', 'run-many', 'exec']);
/** Words that only launch the next word. */
const LAUNCHERS = new Set(['npx', 'bunx', 'pnpx', 'exec', 'env', 'time', 'nice', 'command', 'sudo', 'xvfb-run']);
const LAUNCH_PAIRS = new Map([['pnpm', 'exec'], ['pnpm', 'dlx'], ['yarn', 'dlx'], ['uv', 'run'], ['poetry', 'run'], ['pipenv', 'run'], ['hatch', 'run'], ['rye', 'run'], ['pdm', 'run'], ['python', '-m'], ['python3', '-m'], ['npm', 'exec'], ['bundle', 'exec']]);

/** True when any simple command of the line (split on `&&`, `||`, `;`, `|`, newlines) is a check. */
export function isCheckCommand(command: string): boolean {
  return command.split(/&&|\|\||[;|\n]/).some((part) => isCheckWords(words(part)));
}

function isCheckWords(all: string[]): boolean {
  let rest = dropOptions(all);
  for (;;) {
    const [first, second] = rest;
    if (first === undefined) return false;
    if (LAUNCHERS.has(first)) rest = dropOptions(rest.slice(1));
    else if (second !== undefined && LAUNCH_PAIRS.get(first) === second) rest = dropOptions(rest.slice(2));
    else break;
  }
  const [program = '', ...args] = rest;
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (CHECK_PROGRAMS.has(name)) return true;
  if (CHECK_SUBCOMMANDS.get(name)?.has(args[0] ?? '')) return true;
  if (!SCRIPT_RUNNERS.has(name)) return false;
  const targets = args.filter((arg) => /^--targets?=/.test(arg));
  const task = args.find((arg) => !arg.startsWith('-') && !TASK_VERBS.has(arg));
  return [...targets, task ?? ''].some((word) => CHECK_SCRIPT.test(word));
}

/** Leading options and `NAME=value` assignments. */
function dropOptions(all: string[]): string[] {
  const index = all.findIndex((word) => !word.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  return index < 0 ? [] : all.slice(index);
}

/** Words of one simple command, quotes removed. */
function words(part: string): string[] {
  return (part.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));
}
