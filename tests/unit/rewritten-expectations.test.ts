import { describe, expect, it } from 'vitest';
import { judgeTestChange } from '../../src/tamper/judge-test-change.js';
import { canonicalValue, literalsOf } from '../../src/tamper/literals.js';
import { findTestSpan } from '../../src/tamper/test-span.js';

const before = ["  it('converts hours', () => {", '    const ms = toMs("1.5h");', '    expect(ms).toBe(5400000);', '    expect(typeof ms).toBe("number");', '  });'];
const edit = (index: number, line: string | undefined) => before.flatMap((item, at) => (at === index ? (line === undefined ? [] : [line]) : [item]));

describe('judgeTestChange', () => {
  it('names a literal rewritten to the received value, on the line that has it', () => {
    expect(judgeTestChange(before, edit(2, '    expect(ms).toBe(4_800_000);'), '4800000')).toEqual({ offset: 2, detail: 'expectation changed to the value the code returned (4800000)' });
    expect(judgeTestChange(before, edit(2, "    expect(ms).toBe('abc');"), '"abc"')?.detail).toBe('expectation changed to the value the code returned ("abc")');
  });

  it('follows a const the assertion reads', () => {
    const after = [before[0] ?? '', '    const want = 4800000;', '    const ms = toMs("1.5h");', '    expect(ms).toBe(want);', '  });'];
    expect(judgeTestChange(before, after, '4800000')?.detail).toMatch(/value the code returned/);
  });

  it('does not count a literal that was there before (an unchanged argument)', () => {
    expect(judgeTestChange(before, edit(2, '    expect(ms).toBe(5400001);'), '1.5h')).toBeUndefined();
  });

  it('names a weakened matcher, a deleted assertion, an emptied body, an early return', () => {
    expect(judgeTestChange(before, edit(2, '    expect(ms).toBeDefined();'), '4800000')).toEqual({ offset: 2, detail: 'matcher weakened (toBe → toBeDefined)' });
    expect(judgeTestChange(before, edit(2, '    expect(ms).not.toBeNull();'), undefined)?.detail).toBe('matcher weakened (toBe → not.toBeNull)');
    expect(judgeTestChange(before, edit(2, '    // expect(ms).toBe(5400000);'), undefined)).toEqual({ offset: 0, detail: 'assertion deleted' });
    expect(judgeTestChange(before, [before[0] ?? '', '  });'], undefined)).toEqual({ offset: 0, detail: 'test body emptied' });
    expect(judgeTestChange(before, ["  it('converts hours', () => {});"], undefined)?.detail).toBe('test body emptied');
    expect(judgeTestChange(before, [before[0] ?? '', '    return;', ...before.slice(1)], undefined)).toEqual({ offset: 1, detail: 'returns at the top of the test, before its assertions' });
  });

  it('node:assert and chai matchers', () => {
    const node = ["it('a', () => {", '  assert.deepStrictEqual(f(), [1]);', '});'];
    expect(judgeTestChange(node, ["it('a', () => {", '  assert.ok(f());', '});'], undefined)?.detail).toBe('matcher weakened (deepStrictEqual → ok)');
    expect(judgeTestChange(node, ["it('a', () => {", '  assert(f());', '});'], undefined)?.detail).toBe('matcher weakened (deepStrictEqual → assert)');
    const chai = ["it('a', () => {", '  expect(f()).to.equal(3);', '});'];
    expect(judgeTestChange(chai, ["it('a', () => {", '  expect(f()).to.exist;', '});'], undefined)?.detail).toBe('matcher weakened (equal → exist)');
  });

  it('says nothing when only the setup changed or the checks got stronger', () => {
    expect(judgeTestChange(before, edit(1, '    const ms = toMs("90m");'), '4800000')).toBeUndefined();
    expect(judgeTestChange(before, [...before.slice(0, 4), '    expect(ms).toBeGreaterThan(0);', '  });'], '4800000')).toBeUndefined();
    expect(judgeTestChange(before, before.map((line) => `  ${line}`), '4800000')).toBeUndefined();
  });
});

describe('findTestSpan', () => {
  const file = ["describe('a', () => {", "  it('adds', () => {", "    expect(sum('(', 1)).toBe(1); // )", '  });', "  it('adds', () => {", '  });', '});'];
  it('takes the declaration above the failing line, and ends where its call closes', () => {
    expect(findTestSpan(file, 'adds', 3)).toEqual({ start: 1, end: 3 });
    expect(findTestSpan(file, 'adds', 6)).toEqual({ start: 4, end: 5 });
    expect(findTestSpan(file, 'subtracts', 3)).toBeUndefined();
  });
});

describe('literals', () => {
  it('makes printed and written values comparable', () => {
    expect(canonicalValue('4800000')).toBe(canonicalValue('4_800_000'));
    expect(canonicalValue("'ab'")).toBe(canonicalValue('"ab"'));
    expect(canonicalValue('{ a: 1 }')).toBeUndefined();
    expect(literalsOf('expect(sum(1, -2)).toBe("x")')).toEqual(['n:1', 'n:-2', 's:x']);
  });
});
