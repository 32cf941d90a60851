import { describe, expect, it } from 'vitest';
import { parseStatus } from '../../src/git/parse-status.js';

const OID = 'a'.repeat(40);

describe('parseStatus', () => {
  it('marks a submodule with the commit the superproject records for it', () => {
    const output = [`1 .M SCM. 160000 160000 160000 ${OID} ${OID} lib`, `1 A. S... 000000 160000 160000 ${'0'.repeat(40)} ${OID} new lib`, ''].join('\0');
    expect(parseStatus(output).entries).toEqual([
      { code: '.M', path: 'lib', submodule: { recorded: OID } },
      { code: 'A.', path: 'new lib', submodule: { recorded: '0'.repeat(40) } },
    ]);
  });

  it('reads the head and every kind of entry, paths with spaces intact', () => {
    const output = [
      `# branch.oid ${OID}`,
      '# branch.head main',
      `1 .M N... 100644 100644 100644 ${OID} ${OID} src/a file.ts`,
      `1 D. N... 100644 000000 000000 ${OID} ${'0'.repeat(40)} gone.ts`,
      `2 R. N... 100644 100644 100644 ${OID} ${OID} R100 new name.ts`,
      'old name.ts',
      `u UU N... 100644 100644 100644 100644 ${OID} ${OID} ${OID} both.ts`,
      '? untracked dir/x.ts',
      '! ignored.log',
      '',
    ].join('\0');
    expect(parseStatus(output)).toEqual({
      head: OID,
      entries: [
        { code: '.M', path: 'src/a file.ts' },
        { code: 'D.', path: 'gone.ts' },
        { code: 'R.', path: 'new name.ts', from: 'old name.ts' },
        { code: 'UU', path: 'both.ts' },
        { code: '??', path: 'untracked dir/x.ts' },
      ],
    });
  });

  it('has no head in a repository without commits', () => {
    expect(parseStatus('# branch.oid (initial)\0# branch.head main\0? a.ts\0').head).toBeNull();
  });
});
