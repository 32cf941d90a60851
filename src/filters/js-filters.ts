import { biomeFilter } from './biome.js';
import type { Filter } from './filter.js';
import { eslintFilter } from './eslint.js';
import { jestFilter } from './jest.js';
import { mochaFilter } from './mocha.js';
import { nodeTestFilter } from './node-test.js';
import { tscFilter } from './tsc.js';
import { vitestFilter } from './vitest.js';

/** The JavaScript and TypeScript tools' filters, by the id a preset or a gate names. */
export const JS_FILTERS: Record<string, Filter> = {
  vitest: vitestFilter,
  jest: jestFilter,
  'node-test': nodeTestFilter,
  mocha: mochaFilter,
  tsc: tscFilter,
  eslint: eslintFilter,
  biome: biomeFilter,
};
