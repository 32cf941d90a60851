import { DEPENDENCY_FILES } from '../config/dependency-files.js';
import type { FastTier, Preset } from '../config/schema.js';

/** docs/presets.md, generated from the preset files so that it can't drift from them. */
export function renderPresetsDoc(presets: Preset[]): string {
  const lines = [
    '# Presets',
    '',
    '<!-- Generated from presets/*.json by `npm run docs:presets`; a test fails when it is stale. -->',
    '',
    '`gate init` picks presets from what the repository shows; a gate names one with `"preset"`.',
    'A preset supplies the command, the trigger globs (`on`), what never triggers (`ignore`), the filter',
    'and the timeout; any of them can be overridden in the gate. At most one test runner per',
    'ecosystem is chosen (the fast tier: unit tests — Playwright and Cypress are never chosen). A preset',
    'is proposed only where its program is found as a stop would look it up (the project\'s Python',
    'environment, `node_modules/.bin`, PATH); for one that is not, init says what to install instead',
    '(a Node tool that package.json lists is kept, with the install command to run).',
    '',
    '| preset | kind | runs | filter | timeout | detected when |',
    '|---|---|---|---|---|---|',
  ];
  for (const preset of presets) {
    const detect = preset.detect.map((rule) => describeRule(rule)).join('; ');
    const related = preset.related ? `; fast tier: \`${preset.related.run.join(' ')}\`` : '';
    lines.push(`| \`${preset.id}\` | ${preset.kind} | \`${preset.run.join(' ')}\`${related} | ${preset.filter} | ${preset.timeout} s | ${detect} |`);
  }
  lines.push('', '## Triggers', '');
  lines.push("pytest's `[^.]*/**` is any file in a folder whose name does not start with a dot: tests read");
  lines.push('templates, static files, locale files, JSON and YAML fixtures, SQL and snapshots, so any file under');
  lines.push('the package or the tests that is not documentation runs the test gate (its fast tier takes it');
  lines.push('for the modules that may read it: [fast tiers](fast-tiers.md)). Files at the root other than the');
  lines.push('listed configs do not. Untracked');
  lines.push('environments (a virtualenv, `node_modules`, `__pycache__`, a tagged cache such as cargo\'s `target/`)');
  lines.push('are never a change, whatever `.gitignore` says ([the stop contract](stop-contract.md)). The JavaScript test');
  lines.push("presets do not take data files yet (vitest's and jest's take snapshots): their fast tiers hand a");
  lines.push("changed file to the runner's own selection (`vitest related`, `--findRelatedTests`), which cannot");
  lines.push('place a file a test reads from disk, so a wider `on` would pass without running that test; add');
  lines.push('the globs to a gate\'s `on` with `"related": false` where tests read fixtures.', '');
  for (const preset of presets) {
    lines.push(`- \`${preset.id}\`: ${preset.on.map((glob) => `\`${glob}\``).join(', ')}${preset.ignore?.length ? `; never ${preset.ignore.map((glob) => `\`${glob}\``).join(', ')}` : ''}`);
  }
  lines.push('', '## Lockfiles and manifests', '');
  lines.push('A change to one of its ecosystem\'s lockfiles or manifests, anywhere in the gate\'s folder (`**/NAME`),');
  lines.push('triggers every preset gate of that ecosystem, and runs it in full: an upgraded or newly pinned');
  lines.push('dependency changes what every test and check runs on, so no fast tier narrows it. A gate\'s own `on`,');
  lines.push('when set, is kept as written. The workspace tiers (turbo, Nx, cargo members) run a member whose own');
  lines.push('manifest changed, and its dependents, whole; the root\'s files run every package.', '');
  for (const [ecosystem, names] of Object.entries(DEPENDENCY_FILES)) {
    lines.push(`- ${ecosystem}: ${names.map((name) => `\`${name}\``).join(', ')}`);
  }
  lines.push('', '## Fast tiers', '');
  lines.push('At a stop (and `gate check` without `--all`), a preset with a fast tier runs less than its full');
  lines.push('command: the related tests, the changed files, an incremental cache under gate\'s state');
  lines.push('(`.git/gate/cache/GATE`, never in your tree), or the packages the change reaches. `gate check --all`');
  lines.push('and the baseline check always run the full command; a gate opts out with `"related": false`, and');
  lines.push('`gate status` says which one the next stop runs and why. What each tier can and cannot see:');
  lines.push('[fast tiers](fast-tiers.md).', '');
  for (const preset of presets) {
    if (preset.related) lines.push(`- \`${preset.id}\`: ${describeTier(preset.related, preset.kind, preset.id)}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeRule(rule: Preset['detect'][number]): string {
  if (rule.formatCheck !== undefined) {
    const golangci = rule.formatCheck === 'gofmt' ? ", golangci-lint's config (`.golangci.*` enables gofmt)" : '';
    return `${rule.file === undefined ? '' : `\`${rule.file}\` is present and `}the project's package.json scripts, task files (Makefile, justfile, tox.ini, noxfile.py), GitHub workflows, the scripts these run (or \`scripts/check\`, \`scripts/lint\` …), pre-commit hooks${golangci} run a formatting check with ${rule.formatCheck}`;
  }
  if (rule.lintRun !== undefined) {
    return `the project's pre-commit hooks, package.json scripts, task files (Makefile, justfile, tox.ini, noxfile.py), GitHub workflows or the scripts these run run ${rule.lintRun === 'isort' ? 'an isort check' : rule.lintRun.replace('-', ' ')}`;
  }
  const text = rule.reason.replace('{field}', 'dependencies').replace('{file}', `\`${rule.file ?? ''}\``).replace('{section}', rule.section ?? '');
  return rule.alone === false ? `${text} (only together with another rule)` : text;
}

const TIER_WORDS: Record<FastTier['by'], string> = {
  'changed-files': 'the changed files',
  incremental: 'every run, with the tool\'s cache under gate\'s state',
  typescript:
    'the files the change reaches (by the names they use through barrels) with the declaration files and scripts, through a tsconfig under gate\'s state; where that can\'t be trusted the whole program, incremental (the .tsbuildinfo under gate\'s state); `tsc -b` (both tiers) when tsconfig.json has project references',
  'python-imports': 'the changed test files and the tests that import the changed modules',
  'go-packages': 'the changed packages and those that import them',
  'cargo-members': 'the changed workspace members and their dependents',
  'js-imports': 'the changed test files and the tests that import the changed modules, by a static import graph',
  'turbo-packages': 'the packages holding the changed files and every package that depends on them (`--filter=...NAME`, from `turbo ls`)',
  'nx-projects': "the projects holding the changed files and every project that depends on them (`nx run-many --projects`, from Nx's project graph)",
};

// vitest's tier reads the import graph itself (src/fast/vitest-graph.ts); jest's is the runner's own.
const VITEST_WORDS = 'the files the change reaches by gate\'s import graph, barrels seen through (`vitest run --passWithNoTests FILES`); the runner\'s own selection (the fast tier\'s command) where that graph can\'t be trusted';

function describeTier(tier: FastTier, kind: Preset['kind'], id: string): string {
  const runnerOwn = tier.by === 'changed-files' && kind === 'test';
  const what = id === 'vitest' && runnerOwn ? VITEST_WORDS : runnerOwn ? 'the tests related to the changed files (the runner\'s own selection)' : TIER_WORDS[tier.by];
  const full = tier.fullRunOn.length > 0 ? `; full run when ${tier.fullRunOn.map((glob) => `\`${glob}\``).join(', ')} changed` : '';
  // eslint's whole-project run comes from its own cache, kept true by gate (src/fast/eslint-cache.ts).
  const crossRun = id === 'eslint' ? "the whole project from eslint's cache, its entries for the files changed since the last run and their importers dropped first," : 'full run';
  const crossFile = tier.crossFile
    ? `; ${crossRun} when ${tier.crossFile.configs.map((glob) => `\`${glob}\``).join(' or ')} mentions ${tier.crossFile.mentions.map((word) => `\`${word}\``).join(', ')} (rules that read other files)`
    : '';
  return `${what}${full}${crossFile}`;
}
