// gate's own hook entry in a harness's settings: the entry it writes, and how it knows one it wrote
// (in any form it has used) from someone else's.
import { splitCommand } from '../../plan/split-command.js';

/** One hook entry that init installs: `args` makes it the exec form, which Claude Code runs without a shell. */
export interface GateHook {
  event: string;
  command: string;
  args?: string[];
  timeout: number;
  /** The tools a tool event's group is for (Claude Code's `matcher`, a regex over tool names). */
  matcher?: string;
  /** Claude Code's spinner text while the hook runs. */
  statusMessage?: string;
}
export interface FoundGateHook { event: string; command: string; args?: string[]; timeout?: number }

/**
 * How a harness lays out its hook file where it differs from Claude Code's grouped
 * `{hooks: {Event: [{hooks: [entry]}]}}`. The default (`{}`) is Claude Code's layout.
 */
export interface HookFileShape {
  /** Each event's array holds the entries themselves rather than matcher groups (Cursor). */
  flat?: boolean;
  /** The entry gate writes for a hook; default `{type: 'command', command, timeout}`. A flat entry may omit `type`. */
  entry?: (hook: GateHook) => object;
  /** Keys a file init creates starts with (Cursor's `"version": 1`); a file left with only these is empty. */
  newFile?: Readonly<Record<string, unknown>>;
  /** Said after a JSON syntax error; default: Claude Code reads settings as strict JSON. */
  strictNote?: string;
  /** Shell words gate's command may end with after its own (Gemini: `|| exit 1`, so a missing bin only warns). */
  suffix?: readonly string[];
  /** The entry's fields that hold the command and the timeout; default `command`, `timeout` (Copilot CLI: `bash`, `timeoutSec`). */
  commandKey?: string;
  timeoutKey?: string;
  /** The events are the file's own top-level keys rather than the members of `hooks` (Factory's hooks.json). */
  eventsAtRoot?: boolean;
}

/** Whether a hook entry is one gate wrote, in any form it has used (see isGateInvocation). */
export function isGateCommand(hook: unknown, shape: HookFileShape = {}): boolean {
  return readGateHook(hook, shape) !== undefined;
}

export function entryFor(hook: GateHook, shape: HookFileShape): object {
  if (shape.entry) return shape.entry(hook);
  const { command, args, timeout, statusMessage } = hook;
  const status = statusMessage === undefined ? {} : { statusMessage };
  return args === undefined ? { type: 'command', command, timeout, ...status } : { type: 'command', command, args, timeout, ...status };
}

export function readGateHook(hook: unknown, shape: HookFileShape): Omit<FoundGateHook, 'event'> | undefined {
  if (!isRecord(hook)) return undefined;
  const command = hook[shape.commandKey ?? 'command'];
  if (typeof command !== 'string') return undefined;
  if (hook.type !== 'command' && !(shape.flat === true && hook.type === undefined)) return undefined;
  const { args } = hook;
  const timeout = hook[shape.timeoutKey ?? 'timeout'];
  if (args !== undefined && !isStringArray(args)) return undefined;
  if (!isGateInvocation(withoutSuffix(args === undefined ? splitQuietly(command) : [command, ...args], shape.suffix))) return undefined;
  return { command, ...(args === undefined ? {} : { args }), ...(typeof timeout === 'number' ? { timeout } : {}) };
}

// `…/bin/gate.cjs` is gate's own bin, as its own checkout's hook runs it.
const GATE_PROGRAM = /^(?:(?:.*\/)?node_modules\/\.bin\/)?(?:stop)?gate$|^(?:.*\/)?bin\/gate\.cjs$/;
const NPX_PACKAGE = /^(?:gate|stopgate(?:@\S+)?)$/;
/** npx options that name another package or run a command string: then the words aren't ours. */
const NPX_FOREIGN_OPTION = /^(?:-p|--package|-c|--call)(?:=|$)/;

/**
 * `gate run [--harness NAME]` launched as `…/node_modules/.bin/gate` (with or without the
 * `$CLAUDE_PROJECT_DIR` prefixes), bare `gate`/`stopgate`, or `npx [flags] stopgate[@version]`.
 * Anything more — another subcommand, extra words, `&&`, a redirection — is someone else's command.
 */
function isGateInvocation(words: string[] | undefined): boolean {
  const [program, ...rest] = words ?? [];
  if (program === undefined) return false;
  if (GATE_PROGRAM.test(program)) return isRunArguments(rest);
  if (program !== 'npx') return false;
  const packageAt = rest.findIndex((word) => !word.startsWith('-'));
  const flags = packageAt < 0 ? rest : rest.slice(0, packageAt);
  if (packageAt < 0 || flags.some((flag) => NPX_FOREIGN_OPTION.test(flag))) return false;
  return NPX_PACKAGE.test(rest[packageAt] ?? '') && isRunArguments(rest.slice(packageAt + 1));
}

/** `run`, then at most one `--harness NAME` and one `--event NAME` (Copilot's payload names no event), each also as `--option=NAME`. */
function isRunArguments([subcommand, ...options]: string[]): boolean {
  const name = /^[A-Za-z][\w-]*$/;
  if (subcommand !== 'run') return false;
  const seen = new Set<string>();
  for (let i = 0; i < options.length; i++) {
    const option = /^--(harness|event)(?:=(.*))?$/.exec(options[i] ?? '');
    if (option === null || seen.has(option[1] ?? '')) return false;
    seen.add(option[1] ?? '');
    const value = option[2] ?? options[++i];
    if (value === undefined || !name.test(value)) return false;
  }
  return true;
}

function withoutSuffix(words: string[] | undefined, suffix: readonly string[] | undefined): string[] | undefined {
  if (words === undefined || suffix === undefined || suffix.length === 0) return words;
  const tail = words.slice(-suffix.length);
  return tail.length === suffix.length && tail.every((word, at) => word === suffix[at]) ? words.slice(0, -suffix.length) : words;
}

function splitQuietly(command: string): string[] | undefined {
  try {
    return splitCommand(command);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
