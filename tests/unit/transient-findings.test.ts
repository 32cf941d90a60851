import { describe, expect, it } from 'vitest';
import type { Failure } from '../../src/filters/filter.js';
import { onlyTransient, type TreeAtStart } from '../../src/transient/transient-findings.js';

const ROOT = '/repo';
// Go's packages: example.test/m/<dir> is in ROOT/<dir>.
const packageDirs = (id: string) => (id.startsWith('example.test/m/') ? [`${ROOT}/${id.slice('example.test/m/'.length).split('.')[0]}`] : []);
const tree = (known: string[], changed: string[], present: string[]): TreeAtStart => ({ known: new Set(known), changed: new Set(changed), exists: (path) => present.includes(path), packageDirs });
const finding = (file?: string): Failure => ({ id: `${file ?? 'x'}:1:rule`, message: 'problem', ...(file === undefined ? {} : { file }) });

describe('onlyTransient', () => {
  const start = tree(['src/a.ts', 'src/gone.ts', 'notes.txt'], ['src/b.ts'], ['src/a.ts', 'src/b.ts', 'notes.txt', 'made.js']);

  it('names the files when every finding is in one that appeared or vanished during the run', () => {
    expect(onlyTransient([finding('tests/tsconfig.vitest-temp.json')], ROOT, ROOT, start)).toEqual(['tests/tsconfig.vitest-temp.json']);
    expect(onlyTransient([finding('made.js'), finding('src/gone.ts')], ROOT, ROOT, start)).toEqual(['made.js', 'src/gone.ts']);
    // biome prints a leading slash: read from the gate's cwd.
    expect(onlyTransient([finding('/made.js')], ROOT, ROOT, start)).toEqual(['made.js']);
    expect(onlyTransient([finding('made.js')], ROOT, `${ROOT}/pkg`, start)).toEqual(['pkg/made.js']);
  });

  it('counts a finding in a file there throughout, one the turn changed, one with no file, or one outside the repository', () => {
    expect(onlyTransient([finding('made.js'), finding('src/a.ts')], ROOT, ROOT, start)).toBeUndefined();
    expect(onlyTransient([finding('src/b.ts')], ROOT, ROOT, start)).toBeUndefined();
    expect(onlyTransient([finding('made.js'), finding()], ROOT, ROOT, start)).toBeUndefined();
    expect(onlyTransient([finding('../elsewhere.ts')], ROOT, ROOT, start)).toBeUndefined();
    expect(onlyTransient([finding('/repo/src/a.ts')], ROOT, ROOT, start)).toBeUndefined();
    expect(onlyTransient([], ROOT, ROOT, start)).toBeUndefined();
  });

  it('counts a finding the turn changed even when it is gone now', () => {
    expect(onlyTransient([finding('src/c.ts')], ROOT, ROOT, tree([], ['src/c.ts'], []))).toBeUndefined();
  });

  it('reads a bare go test file name in its package\'s folder', () => {
    const goTest = (file: string): Failure => ({ id: 'example.test/m/sub.TestTwo', file, line: 7, message: 'Two() = 3' });
    const go = tree(['sub/x_test.go', 'sub/x.go'], ['sub/x.go'], ['sub/x_test.go', 'sub/x.go']);
    expect(onlyTransient([goTest('x_test.go')], ROOT, ROOT, go)).toBeUndefined();
    expect(onlyTransient([goTest('gen_test.go')], ROOT, ROOT, go)).toEqual(['sub/gen_test.go']);
    // A helper's line in another package (goldmark's testutil.go) may be any file of that name.
    const helper = tree(['testutil/testutil.go'], [], ['testutil/testutil.go']);
    expect(onlyTransient([goTest('testutil.go')], ROOT, ROOT, helper)).toBeUndefined();
  });
});
