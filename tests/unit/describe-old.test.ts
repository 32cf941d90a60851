import { describe, expect, it } from 'vitest';
import { describeOld } from '../../src/verdict/judge-failures.js';

// The report clips a note at 600 characters: the "Already failing" line must end at a name (issue 42).
describe('describeOld', () => {
  it('lists whole names within the note, then how many more: never a name cut in the middle', () => {
    const ids = Array.from({ length: 25 }, (_, index) => `tests/schemas/test_openapi.py::TestOperationIntrospection::test_generated_operation_number_${index}`);
    const text = describeOld(ids);
    // As tell.ts puts it in the "failing before this turn too" section, whose lines the report clips at 300.
    const line = `packages/api:test: Already failing before this turn (not caused by this change, not blocking): ${text}.`;
    expect(line.length).toBeLessThanOrEqual(300);
    const [listed = '', more] = text.split(' and ');
    const names = listed.split(', ');
    expect(names.every((name) => ids.includes(name))).toBe(true);
    expect(more).toBe(`${ids.length - names.length} more`);
  });

  it('keeps up to 10 short names, and a single overlong name whole up to the budget with a mark', () => {
    expect(describeOld(['a', 'b'])).toBe('a, b');
    expect(describeOld(Array.from({ length: 12 }, (_, index) => `t${index}`))).toBe('t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 and 2 more');
    const long = `tests/${'x'.repeat(600)}`;
    expect(describeOld([long]).endsWith('…')).toBe(true);
    expect(describeOld([long]).length).toBeLessThanOrEqual(160);
  });
});
