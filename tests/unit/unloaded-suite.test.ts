import { describe, expect, it } from 'vitest';
import { unloadedSuite } from '../../src/verdict/unloaded-suite.js';

describe('unloadedSuite', () => {
  it('names a file the baseline failed whole where the turn failed tests inside it', () => {
    expect(unloadedSuite(['src/a.test.ts'], ['src/a.test.ts > sum > adds'])).toBe('src/a.test.ts');
    expect(unloadedSuite(['tests/test_a.py'], ['tests/test_a.py::test_adds'])).toBe('tests/test_a.py');
  });

  it('nothing when the baseline ran the tests, or failed another file whole', () => {
    expect(unloadedSuite(['src/a.test.ts > sum > adds'], ['src/a.test.ts > sum > adds'])).toBeUndefined();
    expect(unloadedSuite(['src/b.test.ts'], ['src/a.test.ts > sum > adds'])).toBeUndefined();
    expect(unloadedSuite([], ['src/a.test.ts'])).toBeUndefined();
  });
});
