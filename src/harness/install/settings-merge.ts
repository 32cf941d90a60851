// Merging gate's hook entries into a harness's settings file, finding and removing them: the text is
// edited in place, and a file gate cannot read is refused, never rewritten.
import { SetupError } from '../../errors.js';
import { entryFor, type FoundGateHook, type GateHook, type HookFileShape, isGateCommand, readGateHook } from './gate-hook-entry.js';
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

/** A settings file gate will not edit; the message names the file, line and column. */
export class SettingsError extends SetupError {
  constructor(readonly file: string, readonly line: number, readonly column: number, problem: string) {
    super(`${file}, line ${line}, column ${column}: ${problem}. The file was left untouched.`);
  }
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
  shape: HookFileShape = {},
): { text: string; changed: boolean } {
  for (const hook of hooks) {
    if (!isGateCommand(entryFor(hook, shape), shape)) throw new Error(`gate would not recognise its own hook later: ${hook.command}`);
  }
  const { bom, body, format } = splitText(existingText ?? '');
  const events = new Set(hooks.map((hook) => hook.event));
  const read = (text: string): SettingsTree => readSettings(text, fileName, (event) => events.has(event), shape);
  let text = isBlank(body) ? newFileText(shape, format) : body;
  read(text); // refuses an invalid file even when there is nothing to add
  for (const hook of hooks) {
    const entry = entryFor(hook, shape);
    if (isInstalled(text, read(text), hook.event, entry, shape)) continue;
    text = removeSpots(text, read, hook.event, true, shape);
    text = addGroup(text, read(text), hook.event, shape.flat ? entry : { ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }), hooks: [entry] }, format);
  }
  const merged = bom + endWithNewline(text, format);
  return { text: merged, changed: merged !== existingText };
}

/** Removes gate's entries, and the groups, events and `hooks` object that held nothing else. */
export function removeGateHooks(existingText: string, fileName: string, shape: HookFileShape = {}): { text: string; changed: boolean; empty: boolean } {
  const { bom, body, format } = splitText(existingText);
  if (isBlank(body)) return { text: existingText, changed: false, empty: true };
  const text = removeSpots(body, (current) => readSettings(current, fileName, () => true, shape), undefined, false, shape);
  if (text === body) return { text: existingText, changed: false, empty: isEmptyObject(body, shape) };
  const removed = bom + endWithNewline(text, format);
  return { text: removed, changed: removed !== existingText, empty: isEmptyObject(text, shape) };
}

export function findGateHooks(text: string, fileName: string, shape: HookFileShape = {}): FoundGateHook[] {
  const { body } = splitText(text);
  if (isBlank(body)) return [];
  const tree = readSettings(body, fileName, () => true, shape);
  return findSpots(body, tree, undefined, shape).map((spot) => ({ event: spot.event.name, ...spot.hook }));
}

interface SettingsTree { root: JsonObject; hooksIndex: number; hooks: JsonObject | undefined; events: EventTree[] }
/** `lists[i]` is the `hooks` array of matcher group `i`. */
interface EventTree { name: string; index: number; groups: JsonArray; lists: JsonArray[] }
interface GateSpot { event: EventTree; groupIndex: number; hookIndex: number; hook: Omit<FoundGateHook, 'event'>; value: unknown }

function readSettings(text: string, file: string, isChecked: (event: string) => boolean, shape: HookFileShape): SettingsTree {
  const fail = (node: JsonNode, problem: string): SettingsError => settingsError(file, text, node.start, problem);
  const root = parseSettings(text, file, shape);
  if (root.kind !== 'object') throw fail(root, 'the settings must be a JSON object ({ … })');
  const hooksIndex = shape.eventsAtRoot ? -1 : lastIndexOfKey(root, 'hooks');
  const hooks = shape.eventsAtRoot ? root : root.members[hooksIndex]?.value;
  if (hooks === undefined) return { root, hooksIndex, hooks: undefined, events: [] };
  if (hooks.kind !== 'object') throw fail(hooks, '"hooks" must be an object mapping event names to arrays of matcher groups');
  const path = shape.eventsAtRoot ? '' : 'hooks.';
  const readEvent = ({ key, value }: JsonMember, index: number): EventTree => {
    if (shape.flat && value.kind !== 'array') throw fail(value, `"${path}${key}" must be an array of hook entries`);
    if (shape.flat && value.kind === 'array') return { name: key, index, groups: value, lists: [value] };
    if (value.kind !== 'array') throw fail(value, `"${path}${key}" must be an array of matcher groups`);
    const lists = value.items.map((group, at) => {
      const list = group.kind === 'object' ? group.members[lastIndexOfKey(group, 'hooks')]?.value : undefined;
      if (list?.kind !== 'array') throw fail(group, `"${path}${key}[${at}]" must be a matcher group: an object with a "hooks" array`);
      return list;
    });
    return { name: key, index, groups: value, lists };
  };
  const events = hooks.members.flatMap((member, index) => (isChecked(member.key) ? [readEvent(member, index)] : []));
  return { root, hooksIndex, hooks, events };
}

function parseSettings(text: string, file: string, shape: HookFileShape): JsonNode {
  try {
    return parseJsonTree(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const note = shape.strictNote ?? 'Claude Code reads settings as strict JSON: no comments, no trailing commas';
    const problem = `not valid JSON: ${error.message} (${note})`;
    throw settingsError(file, text, error.offset, problem);
  }
}

function findSpots(text: string, tree: SettingsTree, event: string | undefined, shape: HookFileShape): GateSpot[] {
  return tree.events
    .filter((candidate) => event === undefined || candidate.name === event)
    .flatMap((eventTree) =>
      eventTree.lists.flatMap((list, groupIndex) =>
        list.items.flatMap((node, hookIndex) => {
          const value: unknown = JSON.parse(text.slice(node.start, node.end));
          const hook = readGateHook(value, shape);
          return hook === undefined ? [] : [{ event: eventTree, groupIndex, hookIndex, hook, value }];
        }),
      ),
    );
}

/** Removes one spot at a time and reads the text again, so that no offset goes stale. */
function removeSpots(text: string, read: (text: string) => SettingsTree, event: string | undefined, keepEvent: boolean, shape: HookFileShape): string {
  for (;;) {
    const tree = read(text);
    const [spot] = findSpots(text, tree, event, shape);
    if (spot === undefined) return text;
    text = removeSpot(text, tree, spot, keepEvent);
  }
}

function removeSpot(text: string, tree: SettingsTree, { event, groupIndex, hookIndex }: GateSpot, keepEvent: boolean): string {
  const list = event.lists[groupIndex];
  if (list !== undefined && list.items.length > 1) return removeEntry(text, list, hookIndex);
  if (keepEvent || event.groups.items.length > 1) return removeEntry(text, event.groups, groupIndex);
  if (tree.hooks !== undefined && (tree.hooks.members.length > 1 || tree.hooks === tree.root)) return removeEntry(text, tree.hooks, event.index);
  return removeEntry(text, tree.root, tree.hooksIndex);
}

/** An identical entry alone in its group (or anywhere in a flat list) is left where it is, so a re-run doesn't reorder anything. */
function isInstalled(text: string, tree: SettingsTree, event: string, entry: object, shape: HookFileShape): boolean {
  const spots = findSpots(text, tree, event, shape);
  const [spot] = spots;
  if (spots.length !== 1 || spot === undefined) return false;
  const alone = shape.flat === true || spot.event.lists[spot.groupIndex]?.items.length === 1;
  return alone && JSON.stringify(spot.value) === JSON.stringify(entry);
}

function addGroup(text: string, tree: SettingsTree, event: string, group: object, format: JsonFormat): string {
  if (tree.hooks === undefined) return appendEntry(text, tree.root, { key: 'hooks', value: { [event]: [group] } }, format);
  const existing = tree.events.find((candidate) => candidate.name === event);
  if (existing === undefined) return appendEntry(text, tree.hooks, { key: event, value: [group] }, format);
  return appendEntry(text, existing.groups, { value: group }, format);
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

function isEmptyObject(text: string, shape: HookFileShape): boolean {
  const root = parseJsonTree(text);
  if (root.kind !== 'object') return false;
  const defaults = shape.newFile ?? {};
  return root.members.every(({ key, value }) => Object.hasOwn(defaults, key) && text.slice(value.start, value.end) === JSON.stringify(defaults[key]));
}

/** What a blank or missing file starts as: `{}`, or the harness's required keys laid out as JSON.stringify would. */
function newFileText(shape: HookFileShape, format: JsonFormat): string {
  if (shape.newFile === undefined) return '{}';
  return JSON.stringify(shape.newFile, null, format.indent).replace(/\n/g, format.eol);
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
