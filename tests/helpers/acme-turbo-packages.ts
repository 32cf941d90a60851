// The npm workspace the turbo and nx tests build: lib, two apps on top of it (web, api) and a leaf
// nothing depends on; node --test suites that pass.
export interface Pkg {
  dir: string;
  deps: string[];
  source: string;
  test: string;
}
export const TEST_HEAD = "const test = require('node:test');\nconst assert = require('node:assert/strict');\n";
export const PACKAGES: Record<string, Pkg> = {
  '@acme/lib': { dir: 'packages/lib', deps: [], source: 'exports.add = (a, b) => a + b;\n', test: `${TEST_HEAD}const { add } = require('../index.js');\n\ntest('adds', () => assert.equal(add(2, 2), 4));\n` },
  '@acme/web': {
    dir: 'apps/web',
    deps: ['@acme/lib'],
    source: "const { add } = require('@acme/lib');\n\nexports.total = (prices) => prices.reduce(add, 0);\n",
    test: `${TEST_HEAD}const { total } = require('../index.js');\n\ntest('totals the cart', () => assert.equal(total([1, 2, 3]), 6));\n`,
  },
  '@acme/api': {
    dir: 'apps/api',
    deps: ['@acme/lib'],
    source: "const { add } = require('@acme/lib');\n\nexports.net = (gross, fee) => add(gross, -fee);\n",
    test: `${TEST_HEAD}const { net } = require('../index.js');\n\ntest('takes the fee off', () => assert.equal(net(10, 3), 7));\n`,
  },
  '@acme/leaf': { dir: 'packages/leaf', deps: [], source: 'exports.shout = (word) => `${word.toUpperCase()}!`;\n', test: `${TEST_HEAD}const { shout } = require('../index.js');\n\ntest('shouts', () => assert.equal(shout('hi'), 'HI!'));\n` },
};
