import { describe, expect, it } from 'vitest';
import { parseJsonTree } from '../../src/harness/install/json-format.js';
import { findGateHooks, mergeGateHooks, removeGateHooks, SettingsError } from '../../src/harness/install/settings-merge.js';
import { isGateCommand } from '../../src/harness/install/gate-hook-entry.js';

const FILE = '.claude/settings.json';
const STOP = { event: 'Stop', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run', timeout: 690 };
const PROMPT = { event: 'UserPromptSubmit', command: '${CLAUDE_PROJECT_DIR}/node_modules/.bin/gate', args: ['run'], timeout: 30 };
const HOOKS = [STOP, PROMPT];

const stopEntry = { type: 'command', command: STOP.command, timeout: 690 };
const promptEntry = { type: 'command', command: PROMPT.command, args: ['run'], timeout: 30 };
const userHook = { type: 'command', command: './scripts/notify.sh' };
const oldGate = { type: 'command', command: 'npx --yes stopgate@0.0.9 run', timeout: 600 };
const oldGateExec = { type: 'command', command: '${CLAUDE_PROJECT_DIR}/node_modules/.bin/gate', args: ['run', '--harness', 'claude'], timeout: 300 };
const gateEvents = { Stop: [{ hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] };

interface Layout { name: string; indent: string; eol: string; bom: boolean }
const LAYOUTS: Layout[] = [
  { name: '2 spaces', indent: '  ', eol: '\n', bom: false },
  { name: '4 spaces', indent: '    ', eol: '\n', bom: false },
  { name: 'tabs', indent: '\t', eol: '\n', bom: false },
  { name: 'CRLF', indent: '  ', eol: '\r\n', bom: false },
  { name: 'BOM', indent: '  ', eol: '\n', bom: true },
  { name: '4 spaces, CRLF and BOM', indent: '    ', eol: '\r\n', bom: true },
];

/** The independent oracle: how JSON.stringify lays the value out in that style. */
function write(value: unknown, layout: Layout): string {
  return (layout.bom ? '\uFEFF' : '') + `${JSON.stringify(value, null, layout.indent)}\n`.replace(/\n/g, layout.eol);
}

interface Fixture { name: string; before: object; merged: object; removed?: object }
const FIXTURES: Fixture[] = [
  { name: 'an empty object', before: {}, merged: { hooks: gateEvents } },
  {
    name: 'permissions only',
    before: { permissions: { allow: ['Bash(npm test)'], deny: [] } },
    merged: { permissions: { allow: ['Bash(npm test)'], deny: [] }, hooks: gateEvents },
  },
  {
    name: "a user's own Stop hook",
    before: { hooks: { Stop: [{ hooks: [userHook] }] } },
    merged: { hooks: { Stop: [{ hooks: [userHook] }, { hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } },
  },
  {
    name: 'other events, and keys before and after hooks',
    before: { model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }] }, env: { A: '1' } },
    merged: { model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }], ...gateEvents }, env: { A: '1' } },
  },
  {
    name: 'an older gate entry in its own group',
    before: { hooks: { Stop: [{ hooks: [oldGate] }, { matcher: '', hooks: [userHook] }] } },
    merged: { hooks: { Stop: [{ matcher: '', hooks: [userHook] }, { hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } },
    removed: { hooks: { Stop: [{ matcher: '', hooks: [userHook] }] } },
  },
  {
    name: 'an older gate entry alone under an event listed before others (the order stays)',
    before: { hooks: { Stop: [{ hooks: [oldGate] }], PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }] } },
    merged: { hooks: { Stop: [{ hooks: [stopEntry] }], PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } },
    removed: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }] } },
  },
  {
    name: "older gate entries inside a user's group and with another timeout",
    before: { hooks: { Stop: [{ hooks: [userHook, oldGateExec] }], UserPromptSubmit: [{ hooks: [{ ...promptEntry, timeout: 10 }] }] } },
    merged: { hooks: { Stop: [{ hooks: [userHook] }, { hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } },
    removed: { hooks: { Stop: [{ hooks: [userHook] }] } },
  },
  {
    name: 'a gate entry under an event init does not write (left by merge, taken by remove)',
    before: { hooks: { SubagentStop: [{ hooks: [oldGate] }] } },
    merged: { hooks: { SubagentStop: [{ hooks: [oldGate] }], ...gateEvents } },
    removed: {},
  },
  // An originally empty `hooks` object (or event array) is not restored: after removal nothing marks
  // it as the user's rather than init's. The caller keeps a backup of the original for that.
  { name: 'an empty hooks object', before: { hooks: {} }, merged: { hooks: gateEvents }, removed: {} },
];

describe.each(LAYOUTS)('settings written with $name', (layout) => {
  describe.each(FIXTURES)('holding $name', ({ before, merged, removed }) => {
    const original = write(before, layout);
    // `{}` shows no indentation to follow, so new text falls back to 2 spaces.
    const expectedLayout = Object.keys(before).length === 0 ? { ...layout, indent: '  ' } : layout;

    it('merge adds one entry per event and keeps everything else', () => {
      expect(mergeGateHooks(original, HOOKS, FILE)).toEqual({ text: write(merged, expectedLayout), changed: true });
    });

    it('a second merge changes nothing', () => {
      const once = mergeGateHooks(original, HOOKS, FILE).text;
      expect(mergeGateHooks(once, HOOKS, FILE)).toEqual({ text: once, changed: false });
    });

    it(removed ? 'remove leaves the file without gate' : 'remove after merge gives back the original bytes', () => {
      const result = removeGateHooks(mergeGateHooks(original, HOOKS, FILE).text, FILE);
      const expected = removed ?? before;
      expect(result.text).toBe(removed ? write(removed, expectedLayout) : original);
      expect(result.changed).toBe(true);
      expect(result.empty).toBe(Object.keys(expected).length === 0);
    });
  });
});

describe('mergeGateHooks', () => {
  it('writes a new file when there is none', () => {
    expect(mergeGateHooks(undefined, HOOKS, FILE)).toEqual({ text: `${JSON.stringify({ hooks: gateEvents }, null, 2)}\n`, changed: true });
  });

  // An empty file is read as `{}`: it holds nothing to lose (see isBlank in settings-merge.ts).
  it.each(['', '\n', ' \n\t'])('treats the blank file %j as {}', (blank) => {
    expect(mergeGateHooks(blank, HOOKS, FILE)).toEqual(mergeGateHooks(undefined, HOOKS, FILE));
  });

  it("follows even a blank file's CRLF", () => {
    const fresh = mergeGateHooks(undefined, HOOKS, FILE).text;
    expect(mergeGateHooks('\r\n', HOOKS, FILE).text).toBe(fresh.replace(/\n/g, '\r\n'));
  });

  it("keeps hand-formatted bytes, number spellings, escapes and integer-like keys that JSON.stringify would change", () => {
    const original = [
      '{',
      '  "permissions": { "allow": ["Bash(npm test)", "Read"] },',
      '  "n": 1.50, "big": 12345678901234567890, "e": "\\u00e9\\/",',
      '  "10": "integer-like key", "a": [1,2],',
      '  "hooks": {',
      '    "Stop": [ { "hooks": [ { "type": "command", "command": "./scripts/notify.sh" } ] } ]',
      '  }',
      '}',
      '',
    ].join('\n');
    const { text } = mergeGateHooks(original, HOOKS, FILE);
    expect(text.startsWith(original.slice(0, original.indexOf('"Stop"')))).toBe(true);
    expect(JSON.parse(text)).toEqual({
      ...JSON.parse(original),
      hooks: { Stop: [{ hooks: [userHook] }, { hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] },
    });
    expect(mergeGateHooks(text, HOOKS, FILE)).toEqual({ text, changed: false });
    expect(removeGateHooks(text, FILE).text).toBe(original);
  });

  it('adds inline where the siblings share a line, and round-trips a one-line file', () => {
    const original = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}';
    const { text } = mergeGateHooks(original, [STOP], FILE);
    expect(text).toContain(`[{"hooks":[{"type":"command","command":"x"}]}, {"hooks": [{"type": "command", "command": `);
    expect(JSON.parse(text)).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }, { hooks: [stopEntry] }] } });
    expect(removeGateHooks(text, FILE).text).toBe(`${original}\n`);
  });

  it('ends the file with a newline (the one byte a round trip adds when the original had none)', () => {
    const original = '{\n  "a": 1\n}';
    const { text } = mergeGateHooks(original, HOOKS, FILE);
    expect(text.endsWith('}\n')).toBe(true);
    expect(removeGateHooks(text, FILE).text).toBe(`${original}\n`);
  });

  it('leaves an identical entry where it is rather than moving it to the end', () => {
    const installed = write({ hooks: { Stop: [{ hooks: [stopEntry] }, { hooks: [userHook] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } }, LAYOUTS[0]!);
    expect(mergeGateHooks(installed, HOOKS, FILE)).toEqual({ text: installed, changed: false });
  });

  it('collapses duplicated gate entries into one and drops the groups they leave empty', () => {
    const original = JSON.stringify({ hooks: { Stop: [{ hooks: [oldGate, stopEntry] }, { hooks: [oldGate] }] } }, null, 2);
    const { text } = mergeGateHooks(original, [STOP], FILE);
    expect(JSON.parse(text)).toEqual({ hooks: { Stop: [{ hooks: [stopEntry] }] } });
  });

  it('leaves a malformed event it does not touch alone', () => {
    const original = `${JSON.stringify({ hooks: { Notification: { odd: true } } }, null, 2)}\n`;
    const { text } = mergeGateHooks(original, HOOKS, FILE);
    expect(JSON.parse(text)).toEqual({ hooks: { Notification: { odd: true }, ...gateEvents } });
  });

  it('refuses to write a command it would not recognise as its own on the next run', () => {
    expect(() => mergeGateHooks(undefined, [{ event: 'Stop', command: 'gate check', timeout: 5 }], FILE)).toThrow(/would not recognise/);
  });
});

describe('removeGateHooks', () => {
  it('returns a file without gate entries byte for byte, unchanged', () => {
    const original = '{ "permissions": {"allow": []},\n\t"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./gate-keeper.sh"}]}]} }';
    expect(removeGateHooks(original, FILE)).toEqual({ text: original, changed: false, empty: false });
  });

  it('reports a blank file as empty without touching it', () => {
    expect(removeGateHooks('', FILE)).toEqual({ text: '', changed: false, empty: true });
  });

  it('says empty for a file that held only gate', () => {
    expect(removeGateHooks(mergeGateHooks(undefined, HOOKS, FILE).text, FILE)).toEqual({ text: '{}\n', changed: true, empty: true });
  });
});

describe('invalid settings are refused with file, line and column', () => {
  it.each([
    { name: 'a trailing comma', text: '{\n  "a": 1,\n}\n', line: 2, column: 9, says: /trailing comma/ },
    { name: 'a comment', text: '{\n  // mine\n  "a": 1\n}\n', line: 2, column: 3, says: /comments are not allowed/ },
    { name: 'a block comment at the end', text: '{}\n/* x */\n', line: 2, column: 1, says: /comments are not allowed/ },
    { name: 'a missing comma', text: '{\n  "a": 1\n  "b": 2\n}\n', line: 3, column: 3, says: /unexpected '"' where ',' or '}' was expected/ },
    { name: 'a raw tab in a string', text: '{"a": "x\ty"}', line: 1, column: 9, says: /control character/ },
    { name: 'a cut-off file', text: '{\r\n  "a": ', line: 2, column: 8, says: /ends where a value/ },
    { name: 'a single-quoted key', text: "{'a': 1}", line: 1, column: 2, says: /property name in double quotes/ },
    { name: 'a BOM (not counted as a column)', text: '\uFEFF{,}', line: 1, column: 2, says: /unexpected ','/ },
    { name: 'a top level that is not an object', text: '[]\n', line: 1, column: 1, says: /must be a JSON object/ },
    { name: 'hooks as an array', text: '{\n  "hooks": []\n}\n', line: 2, column: 12, says: /"hooks" must be an object/ },
    { name: 'hooks as null', text: '{"hooks": null}', line: 1, column: 11, says: /"hooks" must be an object/ },
    { name: 'an event that is not an array', text: '{"hooks": {"Stop": {}}}', line: 1, column: 20, says: /"hooks.Stop" must be an array/ },
    { name: 'a group that is not an object', text: '{"hooks": {"Stop": ["gate run"]}}', line: 1, column: 21, says: /"hooks.Stop\[0\]" must be a matcher group/ },
    { name: 'a group without hooks', text: '{"hooks": {"Stop": [{"matcher": ""}]}}', line: 1, column: 21, says: /"hooks.Stop\[0\]" must be a matcher group/ },
  ])('$name', ({ text, line, column, says }) => {
    for (const attempt of [() => mergeGateHooks(text, HOOKS, FILE), () => removeGateHooks(text, FILE), () => findGateHooks(text, FILE)]) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SettingsError);
      expect(caught).toMatchObject({ file: FILE, line, column });
      expect(String(caught)).toContain(`${FILE}, line ${line}, column ${column}: `);
      expect(String(caught)).toMatch(says);
      expect(String(caught)).toContain('The file was left untouched.');
    }
  });

  it('refuses a malformed event on removal, since removal looks into every event', () => {
    expect(() => removeGateHooks('{"hooks": {"Notification": 1}}', FILE)).toThrow(/"hooks.Notification" must be an array/);
  });
});

describe('isGateCommand', () => {
  const command = (text: string) => ({ type: 'command', command: text });
  it.each([
    '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run',
    '${CLAUDE_PROJECT_DIR}/node_modules/.bin/gate run',
    '"${CLAUDE_PROJECT_DIR}/node_modules/.bin/gate" run',
    '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/stopgate run --harness claude',
    '"/home/me/my project/node_modules/.bin/gate" run',
    '"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/gate run',
    '"$CLAUDE_PROJECT_DIR/my \\"odd\\" dir/node_modules/.bin/gate" run',
    './node_modules/.bin/gate run',
    'node_modules/.bin/gate run --harness=codex',
    'gate run',
    'stopgate run',
    'npx stopgate run',
    'npx gate run',
    'npx --yes stopgate@1.2.3 run',
    'npx -y stopgate@latest run --harness claude',
  ])('recognises %j', (text) => {
    expect(isGateCommand(command(text))).toBe(true);
  });

  it.each([
    [['run']],
    [['run', '--harness', 'claude']],
    [['run', '--harness=cursor']],
  ])('recognises the exec form with args %j', (args) => {
    expect(isGateCommand({ type: 'command', command: '${CLAUDE_PROJECT_DIR}/node_modules/.bin/gate', args })).toBe(true);
  });

  it.each([
    './scripts/gate-keeper.sh',
    'echo gate run',
    'gate',
    'gate-run',
    'gate check',
    'gate run && echo done',
    'gate run; rm -rf build',
    'gate run > /tmp/gate.log',
    'gate run --fix',
    'gate run --harness',
    'gate run --harness claude extra',
    'GATE_DEBUG=1 gate run',
    'bash -c "gate run"',
    '"$CLAUDE_PROJECT_DIR"/scripts/gate run',
    'node_modules/.bin/gatekeeper run',
    'npx gatekeeper run',
    'npx stopgate-fork run',
    'npx gate@1.0.0 run',
    'npx -p other-tool gate run',
    'npx -c "gate run"',
    'npx',
    '"gate run',
    '',
  ])('does not claim %j', (text) => {
    expect(isGateCommand(command(text))).toBe(false);
  });

  it.each([
    ['a prompt hook', { type: 'prompt', command: 'gate run' }],
    ['exec form with another subcommand', { type: 'command', command: 'node_modules/.bin/gate', args: ['check'] }],
    ['exec form with non-string args', { type: 'command', command: 'node_modules/.bin/gate', args: ['run', 1] }],
    ['a command that is not a string', { type: 'command', command: ['gate', 'run'] }],
    ['a bare string', 'gate run'],
    ['null', null],
  ])('does not claim %s', (_name, hook) => {
    expect(isGateCommand(hook)).toBe(false);
  });
});

describe('findGateHooks', () => {
  it('lists gate entries under every event, with their timeouts and args', () => {
    const text = write({ hooks: { Stop: [{ hooks: [userHook, oldGate] }], SubagentStop: [{ hooks: [oldGateExec] }], ...{ UserPromptSubmit: [{ hooks: [promptEntry] }] } } }, LAYOUTS[1]!);
    expect(findGateHooks(text, FILE)).toEqual([
      { event: 'Stop', command: oldGate.command, timeout: 600 },
      { event: 'SubagentStop', command: oldGateExec.command, args: oldGateExec.args, timeout: 300 },
      { event: 'UserPromptSubmit', command: promptEntry.command, args: ['run'], timeout: 30 },
    ]);
  });

  it('finds nothing in a blank file or a file without hooks', () => {
    expect(findGateHooks('', FILE)).toEqual([]);
    expect(findGateHooks('{"permissions": {}}', FILE)).toEqual([]);
  });
});

describe('the JSON parser agrees with JSON.parse', () => {
  // Deterministic mutations of valid settings: delete, insert or replace one character.
  it('on thousands of near-valid texts', () => {
    const seeds = [
      write({ permissions: { allow: ['a', 'b'] }, hooks: gateEvents, n: [1.5, -2e3, 0, true, false, null, '\\"\u00e9'] }, LAYOUTS[0]!),
      '{"a":[1,2,{"b":"c\\u0041\\n"}],"d":-0.5e+7}',
    ];
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', '/', '*', ' ', '\n', '\t', '0', '1', '-', '.', 'e', 'a', 'u', 'n'];
    let state = 42;
    const random = (below: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % below;
    };
    let disagreements = 0;
    for (let round = 0; round < 3000; round++) {
      const seed = seeds[round % seeds.length]!;
      const at = random(seed.length + 1);
      const char = alphabet[random(alphabet.length)]!;
      const text = [seed.slice(0, at) + seed.slice(at + 1), seed.slice(0, at) + char + seed.slice(at), seed.slice(0, at) + char + seed.slice(at + 1)][random(3)]!;
      if (accepts(() => parseJsonTree(text)) !== accepts(() => JSON.parse(text))) disagreements++;
    }
    expect(disagreements).toBe(0);
  });
});

function accepts(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}
