import { SetupError } from '../errors.js';
import { splitCommand } from '../plan/split-command.js';
import {
  appendEntry,
  detectFormat,
  JsonSyntaxError,
  lineAndColumn,
  parseJsonTree,
  removeEntry,
  type JsonArray,
  type JsonFormat,
  type JsonMember,
  type JsonNode,
  type JsonObject,
} from './json-format.js';

/** One hook entry that init installs: `args` makes it the exec form, which Claude Code runs without a shell. */
export interface GateHook { event: string; command: string; args?: string[]; timeout: number }
export interface FoundGateHook { event: string; command: string; args?: string[]; timeout?: number }

/** A settings file gate will not edit; the message names the file, line and column. */
export class SettingsError extends SetupError {
  constructor(readonly file: string, readonly line: number, readonly column: number, problem: string) {
    super(`${file}, line ${line}, column ${column}: ${problem}. The file was left untouched.`);
  }
}

/** Whether a hook entry is one gate wrote, in any form it has used (see isGateInvocation). */
export function isGateCommand(hook: unknown): boolean {
  return readGateHook(hook) !== undefined;
}

/**
 * Adds one fresh entry per event, each in a matcher group of its own at the end of the event's
 * array, after removing gate's older entries under those events. Everything else keeps its bytes:
 * the text is edited in place, new text follows the file's indentation and line endings.
 */
export function mergeGateHooks(
  existingText: string | undefined,
  hooks: GateHook[],
  fileName: string,
): { text: string; changed: boolean } {
  for (const hook of hooks) {
    if (!isGateCommand(entryFor(hook))) throw new Error(`gate would not recognise its own hook later: ${hook.command}`);
  }
  const { bom, body, format } = splitText(existingText ?? '');
  const events = new Set(hooks.map((hook) => hook.event));
  const read = (text: string): SettingsTree => readSettings(text, fileName, (event) => events.has(event));
  let text = isBlank(body) ? '{}' : body;
  read(text); // refuses an invalid file even when there is nothing to add
  for (const hook of hooks) {
    const entry = entryFor(hook);
    if (isInstalled(text, read(text), hook.event, entry)) continue;
    text = removeSpots(text, read, hook.event, true);
    text = addGroup(text, read(text), hook.event, { hooks: [entry] }, format);
  }
  const merged = bom + endWithNewline(text, format);
  return { text: merged, changed: merged !== existingText };
}

/** Removes gate's entries, and the groups, events and `hooks` object that held nothing else. */
export function removeGateHooks(existingText: string, fileName: string): { text: string; changed: boolean; empty: boolean } {
  const { bom, body, format } = splitText(existingText);
  if (isBlank(body)) return { text: existingText, changed: false, empty: true };
  const text = removeSpots(body, (current) => readSettings(current, fileName, () => true), undefined, false);
  if (text === body) return { text: existingText, changed: false, empty: isEmptyObject(body) };
  const removed = bom + endWithNewline(text, format);
  return { text: removed, changed: removed !== existingText, empty: isEmptyObject(text) };
}

export function findGateHooks(text: string, fileName: string): FoundGateHook[] {
  const { body } = splitText(text);
  if (isBlank(body)) return [];
  const tree = readSettings(body, fileName, () => true);
  return findSpots(body, tree).map((spot) => ({ event: spot.event.name, ...spot.hook }));
}

interface SettingsTree { root: JsonObject; hooksIndex: number; hooks: JsonObject | undefined; events: EventTree[] }
/** `lists[i]` is the `hooks` array of matcher group `i`. */
interface EventTree { name: string; index: number; groups: JsonArray; lists: JsonArray[] }
interface GateSpot { event: EventTree; groupIndex: number; hookIndex: number; hook: Omit<FoundGateHook, 'event'>; value: unknown }

function readSettings(text: string, file: string, isChecked: (event: string) => boolean): SettingsTree {
  const fail = (node: JsonNode, problem: string): SettingsError => settingsError(file, text, node.start, problem);
  const root = parseSettings(text, file);
  if (root.kind !== 'object') throw fail(root, 'the settings must be a JSON object ({ … })');
  const hooksIndex = lastIndexOfKey(root, 'hooks');
  const hooks = root.members[hooksIndex]?.value;
  if (hooks === undefined) return { root, hooksIndex, hooks: undefined, events: [] };
  if (hooks.kind !== 'object') throw fail(hooks, '"hooks" must be an object mapping event names to arrays of matcher groups');
  const readEvent = ({ key, value }: JsonMember, index: number): EventTree => {
    if (value.kind !== 'array') throw fail(value, `"hooks.${key}" must be an array of matcher groups`);
    const lists = value.items.map((group, at) => {
      const list = group.kind === 'object' ? group.members[lastIndexOfKey(group, 'hooks')]?.value : undefined;
      if (list?.kind !== 'array') throw fail(group, `"hooks.${key}[${at}]" must be a matcher group: an object with a "hooks" array`);
      return list;
    });
    return { name: key, index, groups: value, lists };
  };
  const events = hooks.members.flatMap((member, index) => (isChecked(member.key) ? [readEvent(member, index)] : []));
  return { root, hooksIndex, hooks, events };
}

function parseSettings(text: string, file: string): JsonNode {
  try {
    return parseJsonTree(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const problem = `not valid JSON: ${error.message} (Claude Code reads settings as strict JSON: no comments, no trailing commas)`;
    throw settingsError(file, text, error.offset, problem);
  }
}

function findSpots(text: string, tree: SettingsTree, event?: string): GateSpot[] {
  return tree.events
    .filter((candidate) => event === undefined || candidate.name === event)
    .flatMap((eventTree) =>
      eventTree.lists.flatMap((list, groupIndex) =>
        list.items.flatMap((node, hookIndex) => {
          const value: unknown = JSON.parse(text.slice(node.start, node.end));
          const hook = readGateHook(value);
          return hook === undefined ? [] : [{ event: eventTree, groupIndex, hookIndex, hook, value }];
        }),
      ),
    );
}

/** Removes one spot at a time and reads the text again, so that no offset goes stale. */
function removeSpots(text: string, read: (text: string) => SettingsTree, event: string | undefined, keepEvent: boolean): string {
  for (;;) {
    const tree = read(text);
    const [spot] = findSpots(text, tree, event);
    if (spot === undefined) return text;
    text = removeSpot(text, tree, spot, keepEvent);
  }
}

function removeSpot(text: string, tree: SettingsTree, { event, groupIndex, hookIndex }: GateSpot, keepEvent: boolean): string {
  const list = event.lists[groupIndex];
  if (list !== undefined && list.items.length > 1) return removeEntry(text, list, hookIndex);
  if (keepEvent || event.groups.items.length > 1) return removeEntry(text, event.groups, groupIndex);
  if (tree.hooks !== undefined && tree.hooks.members.length > 1) return removeEntry(text, tree.hooks, event.index);
  return removeEntry(text, tree.root, tree.hooksIndex);
}

/** An identical entry alone in its group is left where it is, so a re-run doesn't reorder anything. */
function isInstalled(text: string, tree: SettingsTree, event: string, entry: object): boolean {
  const spots = findSpots(text, tree, event);
  const [spot] = spots;
  if (spots.length !== 1 || spot === undefined) return false;
  return spot.event.lists[spot.groupIndex]?.items.length === 1 && JSON.stringify(spot.value) === JSON.stringify(entry);
}

function addGroup(text: string, tree: SettingsTree, event: string, group: object, format: JsonFormat): string {
  if (tree.hooks === undefined) return appendEntry(text, tree.root, { key: 'hooks', value: { [event]: [group] } }, format);
  const existing = tree.events.find((candidate) => candidate.name === event);
  if (existing === undefined) return appendEntry(text, tree.hooks, { key: event, value: [group] }, format);
  return appendEntry(text, existing.groups, { value: group }, format);
}

function entryFor({ command, args, timeout }: GateHook): object {
  return args === undefined ? { type: 'command', command, timeout } : { type: 'command', command, args, timeout };
}

function readGateHook(hook: unknown): Omit<FoundGateHook, 'event'> | undefined {
  if (!isRecord(hook) || hook.type !== 'command' || typeof hook.command !== 'string') return undefined;
  const { command, args, timeout } = hook;
  if (args !== undefined && !isStringArray(args)) return undefined;
  if (!isGateInvocation(args === undefined ? splitQuietly(command) : [command, ...args])) return undefined;
  return { command, ...(args === undefined ? {} : { args }), ...(typeof timeout === 'number' ? { timeout } : {}) };
}

const GATE_PROGRAM = /^(?:(?:.*\/)?node_modules\/\.bin\/)?(?:stop)?gate$/;
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

function isRunArguments([subcommand, ...options]: string[]): boolean {
  const name = /^[A-Za-z][\w-]*$/;
  const [first = '', second = ''] = options;
  if (subcommand !== 'run') return false;
  if (options.length === 0) return true;
  if (options.length === 1) return first.startsWith('--harness=') && name.test(first.slice('--harness='.length));
  return options.length === 2 && first === '--harness' && name.test(second);
}

function splitQuietly(command: string): string[] | undefined {
  try {
    return splitCommand(command);
  } catch {
    return undefined;
  }
}

function splitText(text: string): { bom: string; body: string; format: JsonFormat } {
  const format = detectFormat(text);
  return { bom: format.bom ? '\uFEFF' : '', body: format.bom ? text.slice(1) : text, format };
}

/**
 * An empty (or all-white-space) file is read as `{}` rather than refused: it holds nothing anyone
 * could lose, Claude Code rejects it anyway, and refusing would only make the user delete it first.
 */
function isBlank(text: string): boolean {
  return /^[ \t\r\n]*$/.test(text);
}

function isEmptyObject(text: string): boolean {
  const root = parseJsonTree(text);
  return root.kind === 'object' && root.members.length === 0;
}

function endWithNewline(text: string, format: JsonFormat): string {
  return text.endsWith('\n') ? text : text + format.eol;
}

function settingsError(file: string, text: string, offset: number, problem: string): SettingsError {
  const { line, column } = lineAndColumn(text, offset);
  return new SettingsError(file, line, column, problem);
}

function lastIndexOfKey(object: JsonObject, key: string): number {
  return object.members.map((member) => member.key).lastIndexOf(key);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
