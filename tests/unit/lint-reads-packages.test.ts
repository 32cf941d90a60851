import { afterEach, describe, expect, it } from 'vitest';
import { lintReadsPackages } from '../../src/workspace/lint-reads-packages.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => JSON.stringify(value, null, 2);
const eslintIn = (files: Record<string, string>) => {
  repo = makeRepo({ 'packages/app/src/index.js': '', ...files }, { commit: false });
  return lintReadsPackages('eslint', `${repo.dir}/packages/app`, repo.dir);
};
const biomeIn = (config: unknown) => {
  repo = makeRepo({ 'packages/app/src/index.js': '', 'biome.json': json(config) }, { commit: false });
  return lintReadsPackages('biome', `${repo.dir}/packages/app`, repo.dir);
};

describe('whether a lint configuration can read other packages', () => {
  it("reads a legacy config through package.json and the local preset it extends; a rule switched off doesn't count", () => {
    const preset = `module.exports = {
  parser: '@typescript-eslint/parser',
  extends: ['eslint:recommended', 'prettier'],
  plugins: ['@typescript-eslint', 'prettier', 'es5'],
  rules: { 'no-console': 'error', 'import/no-internal-modules': 'off', 'prettier/prettier': ['error', { singleQuote: true }] },
  overrides: [{ extends: ['plugin:@typescript-eslint/recommended', 'plugin:react/recommended'], plugins: ['react-hooks'], files: ['*.tsx'] }],
};
`;
    const manifest = (prettier: unknown) => json({ prettier, eslintConfig: { root: true, extends: ['./scripts/eslint/preset.js'] } });
    expect(eslintIn({ 'package.json': manifest({ singleQuote: true }), 'scripts/eslint/preset.js': preset })).toEqual({
      reads: false,
      files: ['package.json', 'scripts/eslint/preset.js'],
    });
    repo.cleanup();
    // The prettier rule formats with a shared config: a package of the workspace, maybe.
    expect(eslintIn({ 'package.json': manifest('@acme/prettier-config'), 'scripts/eslint/preset.js': preset })).toEqual({
      reads: true,
      why: 'its prettier rule reads package.json\'s "prettier", which gate does not read',
    });
  });

  it.each([
    ['import rules', "export default [{ plugins: { import: importPlugin }, rules: { 'import/no-unresolved': 'error' } }];", /mentions 'import\//],
    ['eslint-plugin-import itself', "import importPlugin from 'eslint-plugin-import';\nexport default [importPlugin.flatConfigs.recommended];", /eslint-plugin-import/],
    ['type-aware configs', "import tseslint from 'typescript-eslint';\nexport default tseslint.config(tseslint.configs.recommendedTypeChecked);", /TypeChecked/],
    ['a project service', 'export default [{ languageOptions: { parserOptions: { projectService: true } } }];', /projectService/],
    ['a shareable config gate does not know', "import shared from '@acme/eslint-config';\nexport default shared;", /uses @acme\/eslint-config/],
    ['a path computed at run time', "import path from 'node:path';\nexport default [{ extends: [path.join(import.meta.dirname, 'base.js')] }];", /computes extends/],
    ['a local file that is not there', "import base from './missing.js';\nexport default [base];", /could not be read/],
  ])('counts %s as reading other packages', (_what, config, why) => {
    const reach = eslintIn({ 'eslint.config.mjs': config });
    expect(reach.reads).toBe(true);
    expect(reach.reads && reach.why).toMatch(why);
  });

  it('a YAML config or none at all cannot be read with confidence', () => {
    expect(eslintIn({ '.eslintrc.yml': 'extends:\n  - airbnb\n' }).reads).toBe(true);
    repo.cleanup();
    expect(eslintIn({})).toMatchObject({ reads: true, why: 'no eslint configuration found from packages/app' });
  });

  it("biome: project and type rules read other packages, unless off; an extended config from a package can't be read", () => {
    expect(biomeIn({ linter: { rules: { recommended: true } } })).toEqual({ reads: false, files: ['biome.json'] });
    repo.cleanup();
    expect(biomeIn({ linter: { rules: { nursery: { noUnresolvedImports: 'error' } } } }).reads).toBe(true);
    repo.cleanup();
    expect(biomeIn({ linter: { rules: { nursery: { noImportCycles: 'off' } } } }).reads).toBe(false);
    repo.cleanup();
    expect(biomeIn({ linter: { domains: { project: 'recommended' } } }).reads).toBe(true);
    repo.cleanup();
    expect(biomeIn({ extends: ['@acme/biome-config'] }).reads).toBe(true);
  });
});
