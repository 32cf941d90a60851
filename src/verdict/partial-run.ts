// A failed run whose failure list may be incomplete: the tool stopped at its first failing unit (a
// crate, a test binary, a test, the parse stage), so the failures it never reached are unknown, not
// passing. Such a run is evidence only for the ids it showed (ripgrep, issue 37: clippy without
// --keep-going stopped at one crate, and old lints in the others then counted as new).

type Tool = 'cargo' | 'pytest' | 'vitest' | 'jest' | 'mocha' | 'go' | 'tsc' | 'mypy' | 'biome';
type Stops = (args: string[], output: string, seen: boolean) => boolean;

const NAMES: Record<string, Tool> = { 'py.test': 'pytest', dmypy: 'mypy' };
const TOOLS = new Set<string>(['cargo', 'pytest', 'vitest', 'jest', 'mocha', 'go', 'tsc', 'mypy', 'biome']);
const FILTERS: Record<string, Tool> = { 'cargo-clippy': 'cargo', 'cargo-test': 'cargo', 'go-test': 'go', 'go-vet': 'go' };
// cargo commands that build: without --keep-going cargo starts no new crate after one fails.
const CARGO_BUILDS = new Set(['clippy', 'check', 'build', 'b', 'c', 'doc', 'd', 'rustc', 'fix']);
const CARGO_TESTS = new Set(['test', 't', 'bench', 'nextest']);
const COULD_NOT_COMPILE = /^error: could not compile /m;
const TEST_FAILED = /^error: test failed, to rerun pass /m;
const TARGETS_FAILED = /^error: \d+ targets? failed:/m;
// pytest short options that take a value: a letter after one of them in `-rx` is that value, not -x.
const PYTEST_VALUE_LETTERS = new Set(['r', 'k', 'm', 'p', 'c', 'o', 'W', 'n']);

const STOPS: Record<Tool, Stops> = {
  cargo: cargoStopped,
  // Its banner shows -x, --maxfail or a collection error (no test ran), even when set in its config.
  pytest: (args, output) => /^!+ (?:stopping after \d+ failures?|Interrupted: .*) !+$/m.test(output) || args.some(pytestStops),
  vitest: (args) => args.some((arg, index) => bails(arg, args[index + 1], ['--bail'])),
  jest: (args) => args.some((arg, index) => bails(arg, args[index + 1], ['--bail', '-b'])),
  mocha: (args) => args.some((arg) => arg === '--bail' || arg === '-b' || arg === '--bail=true'),
  // The compiler gives up on a package after ten errors; vet reports one type error and runs no analyzer on it.
  go: (args, output) => args.some((arg) => /^--?failfast(?:=true)?$/.test(arg)) || /too many errors$|^vet: /m.test(output),
  // A syntax error anywhere and tsc reports only syntax errors (TS1xxx): no file is type-checked.
  tsc: (_args, output) => /error TS1\d{3}:/.test(output) && !/error TS[2-9]\d{3}:/.test(output),
  mypy: (_args, output) => output.includes('errors prevented further checking'),
  // Past --max-diagnostics (20 by default) biome counts diagnostics but prints none.
  biome: (_args, output) => /^Diagnostics not shown: \d+/m.test(output),
};

/** Whether a FAILED run of `run` may have stopped before reaching, or printing, every failure. */
export function stoppedEarly(run: readonly string[] | string, preset: string | undefined, filter: string, output: string): boolean {
  // gate's own bounded capture kept the ends of a long output: the failures in between are unread.
  if (/^\[gate: \d+ bytes of output omitted here\]$/m.test(output)) return true;
  const argv = typeof run === 'string' ? run.split(/\s+/).filter(Boolean) : [...run];
  const at = argv.findIndex((token) => toolName(token) !== undefined);
  const tool = at >= 0 ? toolName(argv[at] ?? '') : (toolName(filter) ?? FILTERS[filter] ?? toolName(preset ?? '') ?? FILTERS[preset ?? '']);
  // Behind a script (`npm test -- --bail`) the tool is unseen, but its flags are still in the argv.
  return tool !== undefined && STOPS[tool](at >= 0 ? argv.slice(at + 1) : argv, output, at >= 0);
}

function toolName(token: string): Tool | undefined {
  const base = (token.split(/[\\/]/).pop() ?? '').replace(/\.(?:exe|cmd)$/i, '');
  return NAMES[base] ?? (TOOLS.has(base) ? (base as Tool) : undefined);
}

/** `seen` false: cargo ran behind a script and its flags are unknown. */
function cargoStopped(args: string[], output: string, seen: boolean): boolean {
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  const command = seen ? own.find((arg) => CARGO_BUILDS.has(arg) || CARGO_TESTS.has(arg)) : undefined;
  if (command === undefined) return COULD_NOT_COMPILE.test(output) || (TEST_FAILED.test(output) && !TARGETS_FAILED.test(output));
  if (CARGO_BUILDS.has(command)) return !own.includes('--keep-going');
  // A build error stops cargo test at its first failing crate and runs no test: it has no --keep-going.
  if (COULD_NOT_COMPILE.test(output)) return true;
  return !own.includes('--no-fail-fast') || own.includes('--fail-fast');
}

function pytestStops(arg: string): boolean {
  if (['--exitfirst', '--stepwise', '--sw', '--sw-skip', '--stepwise-skip'].includes(arg)) return true;
  const maxfail = /^--maxfail(?:=(\d+))?$/.exec(arg);
  if (maxfail !== null) return maxfail[1] === undefined || Number(maxfail[1]) > 0;
  if (!/^-[^-]/.test(arg)) return false;
  for (const letter of arg.slice(1)) {
    if (letter === 'x') return true;
    if (PYTEST_VALUE_LETTERS.has(letter)) return false;
  }
  return false;
}

/** `--bail`, `--bail=N`, `--bail N` with N > 0 (0 turns it off), and any alias in `flags`. */
function bails(arg: string, next: string | undefined, flags: string[]): boolean {
  const [flag, value] = arg.split('=', 2);
  if (!flags.includes(flag ?? '')) return false;
  const count = value ?? (next !== undefined && /^\d+$/.test(next) ? next : undefined);
  return count === undefined || count === 'true' || Number(count) > 0;
}
