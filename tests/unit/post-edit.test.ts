import { describe, expect, it } from 'vitest';
import { editChange } from '../../src/nudge/edit-change.js';
import { editedFile } from '../../src/nudge/edited-file.js';
import { nudgeFindings } from '../../src/nudge/nudge-findings.js';

const TEST = "describe('sum', () => {\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);\n  });\n});\n";

describe('editedFile', () => {
  it("reads Claude Code's Edit, MultiEdit and Write payloads, and nothing else", () => {
    expect(editedFile({ tool_input: { file_path: '/r/a.ts', old_string: 'a', new_string: 'b' }, tool_response: { originalFile: 'a\n' } })).toEqual({
      path: '/r/a.ts',
      before: 'a\n',
      pairs: [{ old: 'a', new: 'b' }],
    });
    expect(editedFile({ tool_input: { file_path: '/r/a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c' }] } })?.pairs).toEqual([{ old: 'a', new: 'b' }]);
    expect(editedFile({ tool_input: { file_path: '/r/a.ts', content: 'x' } })).toEqual({ path: '/r/a.ts', pairs: [], written: 'x' });
    expect(editedFile({ tool_input: { command: 'ls' } })).toBeUndefined();
    expect(editedFile({ tool_input: 'nonsense', tool_response: [] })).toBeUndefined();
  });
});

describe('editChange and nudgeFindings', () => {
  const after = TEST.replace("it('adds'", "it.skip('adds'").replace('toBe(3)', 'toBeDefined()');

  it('numbers the added lines in the file as it is now, from the old content or from the replaced strings', () => {
    const fromBefore = editChange('src/sum.test.ts', { path: 'x', before: TEST, pairs: [] }, after);
    expect(fromBefore.added.map((line) => line.line)).toEqual([2, 3]);
    const fromPairs = editChange('src/sum.test.ts', { path: 'x', pairs: [{ old: "  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);", new: "  it.skip('adds', () => {\n    expect(sum(1, 2)).toBeDefined();" }] }, after);
    expect(fromPairs.added).toEqual(fromBefore.added);
    expect(fromPairs.removed).toEqual(fromBefore.removed);
  });

  it('names a skip and a weakened matcher, on their lines', () => {
    expect(nudgeFindings(editChange('src/sum.test.ts', { path: 'x', before: TEST, pairs: [] }, after))).toEqual([
      { path: 'src/sum.test.ts', line: 2, kind: 'skip', detail: 'adds it.skip(' },
      { path: 'src/sum.test.ts', line: 3, kind: 'weakened-test', detail: 'matcher weakened (toBe → toBeDefined)' },
    ]);
    const py = 'def test_adds():\n    assert add(1, 2) == 3\n';
    expect(nudgeFindings(editChange('tests/test_calc.py', { path: 'x', before: py, pairs: [] }, py.replace('== 3', '')))[0]?.detail).toBe('matcher weakened (== → truthiness)');
  });

  it('says nothing of an ordinary edit, of a skip only moved, or of a matcher made stronger', () => {
    const code = 'export function sum(a, b) {\n  return a + b;\n}\n';
    expect(nudgeFindings(editChange('src/sum.ts', { path: 'x', before: code, pairs: [] }, code.replace('a + b', 'b + a')))).toEqual([]);
    const skipped = "it.skip('a', () => {});\nit('b', () => {});\n";
    expect(nudgeFindings(editChange('a.test.ts', { path: 'x', before: skipped, pairs: [] }, "it('b', () => {});\nit.skip('a', () => {});\n"))).toEqual([]);
    const weak = TEST.replace('toBe(3)', 'toBeDefined()');
    expect(nudgeFindings(editChange('src/sum.test.ts', { path: 'x', before: weak, pairs: [] }, TEST))).toEqual([]);
  });

  it('reads a new file whole (Write)', () => {
    expect(nudgeFindings(editChange('a.test.ts', { path: 'x', pairs: [], written: "it.only('a', () => {});\n" }, "it.only('a', () => {});\n"))).toEqual([
      { path: 'a.test.ts', line: 1, kind: 'only', detail: 'adds it.only(' },
    ]);
  });
});
