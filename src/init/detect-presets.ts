import picomatch from 'picomatch';
import type { Preset } from '../config/schema.js';
import { LOCKFILES, type PackageManager } from '../package/package-manager.js';
import { DEPENDENCY_FIELDS, type DependencyField, type RepoFacts } from './repo-facts.js';

export type { PackageManager };

export interface ChosenPreset {
  preset: string;
  gateName: string;
  reasons: string[];
  /** The gate's own command, where the preset's would not find the tests (a mocha spec kept in a script: src/init/mocha-spec.ts). */
  run?: string[];
}

export interface PackageManagerChoice {
  name: PackageManager;
  reason: string;
  /** Yarn Plug'n'Play: there is no node_modules/.bin, tools run through `yarn`. */
  plugAndPlay: boolean;
}

export interface Detection {
  presets: ChosenPreset[];
  packageManager: PackageManagerChoice | undefined;
  notes: string[];
  /** Test runners left out because they have no test to run here (see dropEmptySuites). */
  emptySuites?: string[];
  /** Presets left out because their program is not installed here (see dropMissingTools). */
  missingTools?: string[];
}

type Rule = Preset['detect'][number];

interface Match {
  preset: Preset;
  reasons: string[];
  /** Found through its own config (a file or a section), not only an installed dependency. */
  configured: boolean;
  runByTestScript: boolean;
}

const KINDS: ReadonlyArray<Preset['kind']> = ['test', 'typecheck', 'lint'];
const ECOSYSTEMS: ReadonlyArray<Preset['ecosystem']> = ['node', 'python', 'go', 'rust'];
const PREFERENCE = ['vitest', 'jest', 'mocha', 'node-test', 'eslint', 'biome'];
// Turborepo and Nx presets: they run the affected packages' own tasks.
const DELEGATE = /^(?:turbo|nx)-/;
// mocha and node --test often sit beside a vitest or jest suite as leftovers or helpers.
const FALLBACK_RUNNERS = new Set(['mocha', 'node-test']);
// The stop gate runs the fast tier; end-to-end suites take minutes and need a browser.
const E2E_TOOLS = ['@playwright/test', 'playwright', 'cypress'];

/**
 * Which presets `gate init` proposes for a repo, with the reasons a human can check. A workspace
 * `member` leaves the package manager to the workspace root, and what it lacks to the caller.
 */
export function detectPresets(facts: RepoFacts, presets: Map<string, Preset>, options: { member?: boolean; workspaceRoot?: boolean } = {}): Detection {
  const notes: string[] = [];
  const matches = [...presets.values()].flatMap((preset) => matchPreset(preset, facts) ?? []);
  const usable = matches.filter((match) => {
    if (match.preset.ecosystem !== 'node' || facts.packageJson) return true;
    notes.push(`${match.preset.id} skipped: ${match.reasons.join('; ')}, but there is no package.json to install it from.`);
    return false;
  });
  const chosen: ChosenPreset[] = [];
  const taken = new Set<string>();
  const checks = usable.filter(isFormatCheck);
  for (const kind of KINDS) {
    for (const ecosystem of ECOSYSTEMS) {
      const group = usable.filter((match) => !checks.includes(match) && match.preset.kind === kind && match.preset.ecosystem === ecosystem).sort(byPreference);
      const picked = pickDelegate(group, notes) ?? (kind === 'test' ? pickRunner(group, notes) : pickConfigured(group, notes));
      picked.forEach((match, index) => {
        const gateName = index > 0 ? `${kind}-${match.preset.id}` : taken.has(kind) ? `${kind}-${ecosystem}` : kind;
        taken.add(gateName);
        chosen.push({ preset: match.preset.id, gateName, reasons: match.reasons });
      });
    }
  }
  for (const match of checks) {
    const gateName = taken.has('format') ? `format-${match.preset.id}` : 'format';
    taken.add(gateName);
    chosen.push({ preset: match.preset.id, gateName, reasons: match.reasons });
  }
  notes.push(...noteFormatters(facts, chosen));
  notes.push(...noteEndToEnd(facts));
  if (options.member) return { presets: chosen, packageManager: undefined, notes };
  // A workspace root's test script runs the packages', and its packages hold what it lacks.
  if (!options.workspaceRoot) notes.push(...noteLeftOut(facts, chosen, presets));
  return { presets: chosen, packageManager: choosePackageManager(facts, notes), notes };
}

function matchPreset(preset: Preset, facts: RepoFacts): Match | undefined {
  const hits = preset.detect.flatMap((rule) => {
    const evidence = matchRule(rule, facts);
    return evidence ? [{ rule, reason: fillReason(rule.reason, evidence) }] : [];
  });
  if (!hits.some((hit) => hit.rule.alone !== false)) return undefined;
  return {
    preset,
    reasons: [...new Set(hits.map((hit) => hit.reason))],
    configured: hits.some((hit) => hit.rule.dependency === undefined),
    runByTestScript: hits.some((hit) => hit.rule.section === 'scripts.test' && hit.rule.contains !== undefined),
  };
}

/** A rule matches when every condition it states holds; the evidence fills its reason's placeholders. */
function matchRule(rule: Rule, facts: RepoFacts): Record<string, string> | undefined {
  const evidence: Record<string, string> = {};
  if (rule.dependency !== undefined) {
    const field = dependencyField(facts, rule.dependency);
    if (!field) return undefined;
    evidence['field'] = field;
  }
  if (rule.file !== undefined) {
    const isMatch = picomatch(rule.file, { dot: true });
    const file = facts.files.find((name) => isMatch(name));
    if (file === undefined) return undefined;
    evidence['file'] = file;
  }
  if (rule.section !== undefined) {
    const section = findSection(facts, rule.in ?? '', rule.section, rule.contains);
    if (section === undefined) return undefined;
    evidence['section'] = section;
  }
  const runBy = rule.formatCheck ?? rule.lintRun;
  if (runBy !== undefined) {
    const check = facts.formatChecks?.find((found) => found.tool === runBy);
    if (check === undefined) return undefined;
    evidence['where'] = check.where;
    evidence['command'] = check.command;
  }
  return Object.keys(evidence).length > 0 ? evidence : undefined;
}

function dependencyField(facts: RepoFacts, name: string): DependencyField | undefined {
  return DEPENDENCY_FIELDS.find((field) => facts.packageJson?.dependencies[field]?.includes(name));
}

// `[tool.ruff.lint]` configures ruff as surely as `[tool.ruff]` does, hence the prefix match.
function findSection(facts: RepoFacts, file: string, section: string, contains: string | undefined): string | undefined {
  const scripts = facts.packageJson?.scripts ?? {};
  const headers =
    file === 'package.json' && facts.packageJson
      ? [...facts.packageJson.keys, ...Object.keys(scripts).map((name) => `scripts.${name}`)]
      : (facts.sections[file] ?? []);
  return headers.find((header) => {
    if (header !== section && !header.startsWith(`${section}.`)) return false;
    if (contains === undefined) return true;
    const script = header.startsWith('scripts.') ? scripts[header.slice('scripts.'.length)] : undefined;
    return script !== undefined && runsWords(script, contains);
  });
}

/** Whether one command of a script has these words in order: "node --test" matches "node --import tsx --test". */
function runsWords(script: string, words: string): boolean {
  const wanted = words.split(/\s+/).filter(Boolean);
  return script.split(/&&|\|\||[;|&]/).some((command) => {
    let next = 0;
    for (const token of command.trim().split(/\s+/)) {
      const word = wanted[next];
      if (word !== undefined && (token === word || token.endsWith(`/${word}`))) next += 1;
    }
    return next === wanted.length;
  });
}

function fillReason(reason: string, evidence: Record<string, string>): string {
  return reason.replace(/\{(\w+)\}/g, (placeholder: string, key: string) => evidence[key] ?? placeholder);
}

function byPreference(a: Match, b: Match): number {
  const rank = (match: Match) => {
    const index = PREFERENCE.indexOf(match.preset.id);
    return index === -1 ? PREFERENCE.length : index;
  };
  return rank(a) - rank(b) || a.preset.id.localeCompare(b.preset.id);
}

/** A preset that hands the check to the repo's task runner (Turborepo, Nx) for the affected packages. */
export function isDelegate(presetId: string): boolean {
  return DELEGATE.test(presetId);
}

// The task runner already knows every package's own command and the graph between them: it wins over a
// tool gate would otherwise run at the root (whose full run would check every package again).
function pickDelegate(group: Match[], notes: string[]): Match[] | undefined {
  const delegates = group.filter((match) => isDelegate(match.preset.id));
  const chosen = delegates[0];
  if (!chosen) return undefined;
  const others = group.filter((match) => match !== chosen).map((match) => match.preset.id);
  if (others.length > 0) notes.push(`${present(group)}: chose ${chosen.preset.id}, which runs each affected package's own ${chosen.preset.kind} task.`);
  return [chosen];
}

function pickRunner(group: Match[], notes: string[]): Match[] {
  const mainstream = group.filter((match) => !FALLBACK_RUNNERS.has(match.preset.id));
  const pool = mainstream.length > 0 ? mainstream : group;
  const chosen = pool.find((match) => match.runByTestScript) ?? pool[0];
  if (!chosen) return [];
  if (group.length > 1) {
    const why = chosen.runByTestScript
      ? 'the package.json test script runs it'
      : pool.length > 1
        ? `the package.json test script runs none of them and gate prefers ${PREFERENCE.slice(0, 4).join(', then ')}`
        : 'mocha and node --test are chosen only when no other test runner is present';
    notes.push(`${present(group)}: chose ${chosen.preset.id} because ${why}.`);
  }
  return [chosen];
}

function pickConfigured(group: Match[], notes: string[]): Match[] {
  if (group.length < 2) return group;
  const configured = group.filter((match) => match.configured);
  if (configured.length === group.length) notes.push(`${present(group)}, each with its own config: chose all of them.`);
  const picked = configured.length > 0 ? configured : group.slice(0, 1);
  const dropped = group.filter((match) => !picked.includes(match)).map((match) => match.preset.id);
  if (dropped.length > 0) notes.push(`${present(group)}: chose ${picked.map((match) => match.preset.id).join(' and ')} because ${dropped.join(' and ')} has no config file.`);
  return picked;
}

function present(group: Match[]): string {
  const ids = group.map((match) => match.preset.id).sort();
  return `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)} ${ids.length === 2 ? 'both' : 'all'} present`;
}

// A formatter's check is its own gate, "format", beside the linter's: its own program, exit code and
// report (the files, their diff, the command that formats them), and a team can drop it alone.
function isFormatCheck(match: Match): boolean {
  return match.preset.detect.some((rule) => rule.formatCheck !== undefined);
}

function noteFormatters(facts: RepoFacts, chosen: ChosenPreset[]): string[] {
  return (facts.formatChecks ?? []).flatMap((check) => {
    if (check.tool === 'biome') {
      return chosen.some((entry) => entry.preset === 'biome') ? [] : [`${check.where} runs \`${check.command}\`, but biome is not a dependency in package.json: no gate checks its formatting.`];
    }
    return [];
  });
}

function noteEndToEnd(facts: RepoFacts): string[] {
  return E2E_TOOLS.flatMap((tool) => {
    const field = dependencyField(facts, tool);
    return field ? [`package.json ${field} has ${tool}: end-to-end tests are left out, the stop gate runs the fast tier only.`] : [];
  });
}

function noteLeftOut(facts: RepoFacts, chosen: ChosenPreset[], presets: Map<string, Preset>): string[] {
  const notes: string[] = [];
  const testScript = facts.packageJson?.scripts['test'];
  const nodeTests = chosen.some((entry) => presets.get(entry.preset)?.ecosystem === 'node' && presets.get(entry.preset)?.kind === 'test');
  if (testScript !== undefined && !nodeTests && !testScript.includes('no test specified')) {
    notes.push(`the package.json test script ("${testScript}") runs no test runner gate knows: add a gate for it by hand.`);
  }
  if (chosen.length === 0) {
    notes.push('nothing detected: no known test runner, type checker or linter in package.json, pyproject.toml, setup.cfg, go.mod, Cargo.toml or root config files; add gates to gate.config.json by hand.');
  }
  return notes;
}

function choosePackageManager(facts: RepoFacts, notes: string[]): PackageManagerChoice | undefined {
  if (!facts.packageJson) return undefined;
  const pnp = facts.files.includes('.pnp.cjs') || facts.files.includes('.pnp.js');
  const choose = (name: PackageManager, reason: string) => ({ name, reason, plugAndPlay: name === 'yarn' && pnp });
  const locks = LOCKFILES.filter(([file]) => facts.files.includes(file));
  const declared = facts.packageJson.packageManager;
  if (declared !== undefined) {
    const name = LOCKFILES.find(([, manager]) => declared.startsWith(`${manager}@`) || declared === manager)?.[1];
    if (name) {
      const stray = locks.filter(([, manager]) => manager !== name).map(([file]) => file);
      if (stray.length > 0) notes.push(`package.json packageManager is ${declared}, yet ${stray.join(' and ')} is present: using ${name}.`);
      return choose(name, `package.json packageManager is ${declared}`);
    }
    notes.push(`package.json packageManager "${declared}" is not npm, pnpm, yarn or bun: ignored.`);
  }
  const first = locks[0];
  if (!first) return choose('npm', 'no lockfile, so npm, the default');
  if (new Set(locks.map(([, manager]) => manager)).size > 1) {
    notes.push(`several lockfiles (${locks.map(([file]) => file).join(', ')}): chose ${first[1]}; set "packageManager" in package.json to decide.`);
  }
  return choose(first[1], `${first[0]} is present`);
}
