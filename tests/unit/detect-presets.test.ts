import { describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import type { Preset } from '../../src/config/schema.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import type { DependencyField, RepoFacts } from '../../src/init/repo-facts.js';

const presets = loadPresets();

interface FactsInput {
  files?: string[];
  deps?: Partial<Record<DependencyField, string[]>>;
  scripts?: Record<string, string>;
  keys?: string[];
  packageManager?: string;
  sections?: Record<string, string[]>;
  noPackageJson?: boolean;
}

function facts(input: FactsInput): RepoFacts {
  const packageJson = input.noPackageJson
    ? undefined
    : { dependencies: input.deps ?? {}, scripts: input.scripts ?? {}, keys: input.keys ?? [], packageManager: input.packageManager };
  const files = [...(input.files ?? []), ...(packageJson ? ['package.json'] : []), ...Object.keys(input.sections ?? {})];
  return { files: files.sort(), packageJson, sections: input.sections ?? {} };
}

function chosen(input: FactsInput, from: Map<string, Preset> = presets): string[][] {
  return detectPresets(facts(input), from).presets.map((entry) => [entry.preset, entry.gateName]);
}

const TS_REPO: FactsInput = {
  files: ['tsconfig.json', 'eslint.config.js'],
  deps: { devDependencies: ['eslint', 'typescript', 'vitest'] },
};

describe('detectPresets: which presets, under which gate names', () => {
  it.each<[string, FactsInput, string[][]]>([
    ['a TypeScript repo with vitest and eslint', TS_REPO, [['vitest', 'test'], ['tsc', 'typecheck'], ['eslint', 'lint']]],
    ['typescript without a tsconfig.json', { deps: { devDependencies: ['typescript', 'vitest'] } }, [['vitest', 'test']]],
    ['eslint installed but not configured', { deps: { devDependencies: ['eslint'] } }, []],
    ['eslint configured in package.json', { deps: { devDependencies: ['eslint'] }, keys: ['eslintConfig'] }, [['eslint', 'lint']]],
    ['a vitest config file alone', { files: ['vitest.config.mts'] }, [['vitest', 'test']]],
    ['jest and vitest, the test script runs jest', { deps: { devDependencies: ['jest', 'vitest'] }, scripts: { test: 'cross-env CI=1 jest --ci' } }, [['jest', 'test']]],
    ['jest and vitest, the test script runs vitest', { deps: { devDependencies: ['jest', 'vitest'] }, scripts: { test: 'vitest run' } }, [['vitest', 'test']]],
    ['jest and vitest, the test script runs neither', { deps: { devDependencies: ['jest', 'vitest'] }, scripts: { test: 'make test' } }, [['vitest', 'test']]],
    ['jest configured in package.json', { keys: ['jest'] }, [['jest', 'test']]],
    ['the test script runs jest through a path', { scripts: { test: './node_modules/.bin/jest' } }, [['jest', 'test']]],
    ['mocha beside vitest', { deps: { devDependencies: ['mocha', 'vitest'] }, scripts: { test: 'mocha' } }, [['vitest', 'test']]],
    ['mocha alone', { files: ['.mocharc.json'] }, [['mocha', 'test']]],
    ['node --test', { scripts: { test: 'node --test' } }, [['node-test', 'test']]],
    ['node --test with a loader', { scripts: { test: 'tsc && node --import tsx --test src' } }, [['node-test', 'test']]],
    ['--test in another command of the script', { scripts: { test: 'node build.js && tap --test' } }, []],
    ['node --test beside vitest', { deps: { devDependencies: ['vitest'] }, scripts: { test: 'node --test' } }, [['vitest', 'test']]],
    ['node --test beside a .mocharc', { files: ['.mocharc.yml'], scripts: { test: 'node --test' } }, [['node-test', 'test']]],
    ['biome', { files: ['biome.json'], deps: { devDependencies: ['@biomejs/biome'] } }, [['biome', 'lint']]],
    ['biome installed, eslint configured', { files: ['.eslintrc.cjs'], deps: { devDependencies: ['@biomejs/biome', 'eslint'] } }, [['eslint', 'lint']]],
    ['biome and eslint both configured', { files: ['biome.jsonc', 'eslint.config.mjs'] }, [['eslint', 'lint'], ['biome', 'lint-biome']]],
    ['vitest and playwright', { deps: { devDependencies: ['@playwright/test', 'vitest'] } }, [['vitest', 'test']]],
    [
      'pyproject with pytest, ruff and mypy',
      { noPackageJson: true, sections: { 'pyproject.toml': ['project', 'tool.pytest.ini_options', 'tool.ruff', 'tool.mypy'] } },
      [['pytest', 'test'], ['mypy', 'typecheck'], ['ruff', 'lint']],
    ],
    ['only a ruff sub-table', { noPackageJson: true, sections: { 'pyproject.toml': ['tool.ruff.lint'] } }, [['ruff', 'lint']]],
    ['a pyproject without tool sections', { noPackageJson: true, sections: { 'pyproject.toml': ['project', 'build-system'] } }, []],
    ['setup.cfg with [tool:pytest]', { noPackageJson: true, sections: { 'setup.cfg': ['metadata', 'tool:pytest'] } }, [['pytest', 'test']]],
    ['tox.ini with [pytest]', { noPackageJson: true, sections: { 'tox.ini': ['tox', 'pytest'] } }, [['pytest', 'test']]],
    ['go.mod', { noPackageJson: true, files: ['go.mod', 'go.sum'] }, [['go-test', 'test'], ['go-vet', 'lint']]],
    ['Cargo.toml', { noPackageJson: true, files: ['Cargo.toml'] }, [['cargo-test', 'test'], ['cargo-clippy', 'lint']]],
    [
      'node, python, go and rust in one repo',
      { ...TS_REPO, files: ['tsconfig.json', 'eslint.config.js', 'go.mod', 'Cargo.toml'], sections: { 'pyproject.toml': ['tool.pytest', 'tool.mypy', 'tool.ruff'] } },
      [
        ['vitest', 'test'], ['pytest', 'test-python'], ['go-test', 'test-go'], ['cargo-test', 'test-rust'],
        ['tsc', 'typecheck'], ['mypy', 'typecheck-python'],
        ['eslint', 'lint'], ['ruff', 'lint-python'], ['go-vet', 'lint-go'], ['cargo-clippy', 'lint-rust'],
      ],
    ],
    ['python and go without node', { noPackageJson: true, files: ['go.mod'], sections: { 'pyproject.toml': ['tool.ruff'] } }, [['go-test', 'test'], ['ruff', 'lint'], ['go-vet', 'lint-go']]],
    ['node config files without a package.json', { noPackageJson: true, files: ['tsconfig.json', 'vitest.config.ts'] }, []],
    ['an empty repo', { noPackageJson: true }, []],
  ])('%s', (_name, input, expected) => {
    expect(chosen(input)).toEqual(expected);
  });

  it('does not depend on the order of the presets', () => {
    const reversed = new Map([...presets].reverse());
    const input: FactsInput = { ...TS_REPO, files: ['biome.json', 'eslint.config.js', 'tsconfig.json', 'go.mod'], deps: { devDependencies: ['jest', 'mocha', 'vitest'] } };
    expect(chosen(input, reversed)).toEqual(chosen(input));
  });
});

describe('detectPresets: reasons', () => {
  it.each<[DependencyField, string]>([
    ['dependencies', 'package.json dependencies has vitest'],
    ['devDependencies', 'package.json devDependencies has vitest'],
    ['peerDependencies', 'package.json peerDependencies has vitest'],
    ['optionalDependencies', 'package.json optionalDependencies has vitest'],
  ])('says the dependency was found in %s', (field, reason) => {
    expect(detectPresets(facts({ deps: { [field]: ['vitest'] } }), presets).presets[0]?.reasons).toEqual([reason]);
  });

  it('names the file, the section and the script that matched, every one of them', () => {
    const detection = detectPresets(
      facts({ files: ['vitest.config.ts', 'tsconfig.json'], deps: { devDependencies: ['typescript', 'vitest'] }, scripts: { test: 'vitest run' } }),
      presets,
    );
    expect(detection.presets.map((entry) => [entry.preset, entry.reasons])).toEqual([
      ['vitest', ['package.json devDependencies has vitest', 'vitest.config.ts is present', 'the package.json test script runs vitest']],
      ['tsc', ['tsconfig.json is present', 'package.json devDependencies has typescript']],
    ]);
    const python = detectPresets(facts({ noPackageJson: true, sections: { 'pyproject.toml': ['tool.ruff.lint'], 'setup.cfg': ['mypy'] } }), presets);
    expect(python.presets.map((entry) => entry.reasons)).toEqual([['setup.cfg has [mypy]'], ['pyproject.toml has [tool.ruff.lint]']]);
  });

  it('every shipped rule can fill its reason placeholders', () => {
    for (const preset of presets.values()) {
      for (const rule of preset.detect) {
        const fillable = new Set([rule.dependency && 'field', rule.file && 'file', rule.section && 'section', (rule.formatCheck ?? rule.lintRun) && 'where', (rule.formatCheck ?? rule.lintRun) && 'command']);
        for (const [, key] of rule.reason.matchAll(/\{(\w+)\}/g)) expect(fillable, `${preset.id}: ${rule.reason}`).toContain(key);
        if (rule.section !== undefined) expect(rule.in, `${preset.id}: section ${rule.section} needs "in"`).toBeDefined();
      }
    }
  });
});

describe('detectPresets: notes', () => {
  function notes(input: FactsInput): string[] {
    return detectPresets(facts(input), presets).notes;
  }

  it('explains a choice between test runners', () => {
    expect(notes({ deps: { devDependencies: ['jest', 'vitest'] }, scripts: { test: 'jest' } })).toEqual([
      'jest and vitest both present: chose jest because the package.json test script runs it.',
    ]);
    expect(notes({ deps: { devDependencies: ['jest', 'vitest'] } })[0]).toMatch(/^jest and vitest both present: chose vitest because the package\.json test script runs none of them/);
    expect(notes({ deps: { devDependencies: ['mocha', 'vitest'] } })[0]).toMatch(/chose vitest because mocha and node --test are chosen only when no other test runner is present/);
  });

  it('explains a choice between linters', () => {
    expect(notes({ files: ['eslint.config.js'], deps: { devDependencies: ['@biomejs/biome', 'eslint'] } })).toEqual([
      'biome and eslint both present: chose eslint because biome has no config file.',
    ]);
    expect(notes({ files: ['eslint.config.js', 'biome.json'] })).toEqual(['biome and eslint both present, each with its own config: chose all of them.']);
  });

  it('says why end-to-end runners are left out', () => {
    expect(notes({ deps: { devDependencies: ['vitest'], dependencies: ['cypress'] } })).toEqual([
      'package.json dependencies has cypress: end-to-end tests are left out, the stop gate runs the fast tier only.',
    ]);
  });

  it('says when nothing was detected, and when a test script runs an unknown runner', () => {
    expect(notes({ noPackageJson: true })).toEqual([expect.stringMatching(/^nothing detected/)]);
    expect(notes({ scripts: { test: 'ava' } })).toEqual([expect.stringMatching(/test script \("ava"\) runs no test runner gate knows/), expect.stringMatching(/^nothing detected/)]);
    expect(notes({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })).toEqual([expect.stringMatching(/^nothing detected/)]);
  });

  it('says which node tools it skipped for want of a package.json', () => {
    expect(notes({ noPackageJson: true, files: ['tsconfig.json'] })[0]).toBe('tsc skipped: tsconfig.json is present, but there is no package.json to install it from.');
  });
});

describe('detectPresets: package manager', () => {
  it.each<[string, FactsInput, string | undefined, boolean, number]>([
    ['no lockfile', {}, 'npm', false, 0],
    ['package-lock.json', { files: ['package-lock.json'] }, 'npm', false, 0],
    ['pnpm-lock.yaml', { files: ['pnpm-lock.yaml'] }, 'pnpm', false, 0],
    ['yarn.lock', { files: ['yarn.lock'] }, 'yarn', false, 0],
    ['yarn Plug\'n\'Play', { files: ['yarn.lock', '.pnp.cjs'] }, 'yarn', true, 0],
    ['bun.lockb', { files: ['bun.lockb'] }, 'bun', false, 0],
    ['bun.lock', { files: ['bun.lock'] }, 'bun', false, 0],
    ['packageManager wins over the lockfile', { files: ['package-lock.json'], packageManager: 'pnpm@9.12.0+sha512.abc' }, 'pnpm', false, 1],
    ['an unknown packageManager is ignored', { files: ['yarn.lock'], packageManager: 'deno@2' }, 'yarn', false, 1],
    ['two lockfiles', { files: ['package-lock.json', 'yarn.lock'] }, 'yarn', false, 1],
    ['no package.json', { noPackageJson: true, files: ['yarn.lock'] }, undefined, false, 0],
  ])('%s', (_name, input, name, plugAndPlay, noteCount) => {
    const detection = detectPresets(facts(input), new Map());
    expect(detection.packageManager?.name).toBe(name);
    expect(detection.packageManager?.plugAndPlay ?? false).toBe(plugAndPlay);
    // An empty preset map always adds the "nothing detected" note.
    expect(detection.notes).toHaveLength(noteCount + 1);
  });

  it('gives the reason', () => {
    expect(detectPresets(facts({ files: ['pnpm-lock.yaml'] }), new Map()).packageManager?.reason).toBe('pnpm-lock.yaml is present');
    expect(detectPresets(facts({ packageManager: 'yarn@4.5.0' }), new Map()).packageManager?.reason).toBe('package.json packageManager is yarn@4.5.0');
  });
});
