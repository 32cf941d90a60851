import { describe, expect, it } from 'vitest';
import { addedReExports } from '../../src/plan/barrel-additions.js';

const BARREL = "export * from './sum';\nexport { greet } from './greet';\n";

describe('addedReExports: an edit of a barrel that only adds re-exports', () => {
  it('gives the specifiers added, wherever the lines go', () => {
    expect(addedReExports(BARREL, `${BARREL}export * from './shout';\n`)).toEqual(['./shout']);
    expect(addedReExports(BARREL, `export { a, b as c } from "./ab.js";\n${BARREL}export * as ns from './ns';\nexport type { T } from './t'\n`)).toEqual(['./ab.js', './ns', './t']);
    expect(addedReExports(BARREL.replace('\n', '\r\n'), `${BARREL}\nexport * from './shout';\n`)).toEqual(['./shout']);
  });

  it('is undefined for anything else: a line removed or changed, another statement, a package, a re-export over lines, nothing added', () => {
    expect(addedReExports(BARREL, "export * from './sum';\nexport * from './shout';\n")).toBeUndefined();
    expect(addedReExports(BARREL, `${BARREL.replace('greet }', 'greet, hello }')}export * from './shout';\n`)).toBeUndefined();
    expect(addedReExports(BARREL, `${BARREL}export * from './shout';\nexport const version = 2;\n`)).toBeUndefined();
    expect(addedReExports(BARREL, `${BARREL}export * from 'lodash';\n`)).toBeUndefined();
    expect(addedReExports(BARREL, `${BARREL}export {\n  shout,\n} from './shout';\n`)).toBeUndefined();
    expect(addedReExports(BARREL, `${BARREL}export * from './shout'; // new\n`)).toBeUndefined();
    expect(addedReExports(BARREL, `${BARREL}\n`)).toBeUndefined();
  });
});
