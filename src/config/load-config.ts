import { DEFAULT_WHEN_ASKING, type WhenAsking } from '../asking/decide-asking.js';
import { relative, resolve } from 'node:path';
import { closestWord } from './closest-word.js';
import { FILTER_IDS } from '../filters/filter-ids.js';
import { checkBlockCap, hostBlockCap } from './block-cap.js';
import { ConfigError, type ConfigProblem } from './config-problem.js';
import { dependencyFullRuns, dependencyTriggers } from './dependency-files.js';
import { describeIssues } from './describe-issues.js';
import type { ConfigFiles } from './find-config.js';
import { loadPresets } from './load-presets.js';
import { checkConfigShape, parseJson } from './parse-json.js';
import { configSchema, gateSchema, type ConfigFile, type FastTier, type GateEntry, type Preset, type WORKSPACE_KINDS } from './schema.js';
import { machineCores, testRunnersAtOnce } from '../plan/machine-cores.js';
import { DEFAULTS, type OnTimeout } from './defaults.js';

export type WorkspaceKind = (typeof WORKSPACE_KINDS)[number];

export interface ResolvedGate {
  /** Unique across the configs of a stop: the plain name in the root config, `DIR:NAME` in a package's. */
  name: string;
  /** The name as its config spells it. */
  shortName: string;
  /** Absolute directory of the config that defines the gate: the files it owns are its scope. */
  configDir: string;
  preset: string | undefined;
  /** The preset's kind (test, typecheck, lint); undefined for a gate without a preset. */
  kind?: 'test' | 'typecheck' | 'lint';
  run: string | string[];
  shell: boolean;
  on: string[];
  ignore: string[];
  timeoutSeconds: number;
  filter: string;
  /** The preset's fast tier, when it has one and the gate keeps the preset's command. */
  tier: FastTier | undefined;
  /** `"related": false`: always the full command. */
  fastOff: boolean;
  /**
   * A changed file matching these runs the gate in full whatever its fast tier: its preset's
   * ecosystem's lockfiles and manifests (src/config/dependency-files.ts).
   */
  fullRunOn?: string[];
  /** Absolute directory the command runs in. */
  cwd: string;
  env: Record<string, string>;
  retries: number;
  /** The preset's command exits 0 whatever it finds: any output fails the gate (gofmt -d). */
  outputFails?: boolean;
  /**
   * Set by a stop's plan, not the config: the changed files (relative to `cwd`) whose declarations
   * are what they were at the change's base, type-checked by another gate (src/plan/kept-declarations.ts).
   */
  declarationsKept?: string[];
}

export interface ResolvedConfig {
  dir: string;
  hash: string;
  gates: ResolvedGate[];
  maxBlocks: number;
  budget: number;
  concurrency: number;
  /** `concurrency` as the config sets it: the stop's time budget assumes no more (src/plan/stop-budget.ts). */
  declaredConcurrency: number | undefined;
  /** Test runners' gates at once when the config sets no `concurrency` (half the cores: each starts its own workers); undefined: no limit but `concurrency`. */
  testRunners?: number;
  onTimeout: OnTimeout;
  outsideGit: 'skip' | 'run';
  subagents: boolean;
  tamper: 'block' | 'warn' | 'off';
  whenAsking: WhenAsking;
  /** A workspace root: dependents of a changed package run too. `affectsAll` undefined: the kind's default. */
  workspaces: { kind: WorkspaceKind | 'auto'; affectsAll: string[] | undefined } | undefined;
  /** The stop-wide keys the files set; in a package's config they are ignored (only the root config's count). */
  stopWideKeys: string[];
}

/**
 * Reads, validates and layers the config files: built-in defaults < preset < team < personal.
 * `env` only for the host's own block cap (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP).
 */
export function loadConfig(files: ConfigFiles, displayBase: string, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const problems: ConfigProblem[] = [];
  const layers: Array<{ file: string; config: ConfigFile }> = [];
  for (const source of [files.team, files.local]) {
    if (!source) continue;
    const file = relative(displayBase, source.path) || source.path;
    if (source.unreadable !== undefined) {
      problems.push({ file, path: '', message: `cannot be read: ${source.unreadable}; make it a readable file, or remove it` });
      continue;
    }
    const parsed = parseJson(file, source.text);
    if ('problem' in parsed) {
      problems.push(parsed.problem);
      continue;
    }
    const shape = checkConfigShape(file, source.text);
    if (shape.length > 0) {
      problems.push(...shape);
      continue;
    }
    const result = configSchema.safeParse(parsed.value, { reportInput: true });
    if (!result.success) {
      problems.push(...describeIssues(file, result.error.issues, knownKeys));
      continue;
    }
    problems.push(...checkGates(file, result.data.gates ?? []));
    layers.push({ file, config: result.data });
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const merged = layers.reduce<ConfigFile>((base, layer) => mergeLayer(base, layer.config), {});
  const gates = (merged.gates ?? []).map((gate) => resolveGate(gate, files.dir));
  const lastFile = layers.at(-1)?.file ?? 'gate.config.json';
  const incomplete = (merged.gates ?? []).flatMap((gate, index) =>
    gate.preset === undefined && gate.run === undefined
      ? [{ file: lastFile, path: `gates[${index}]`, message: `gate "${gate.name}" needs "preset" or "run"` }]
      : [],
  );
  if (incomplete.length > 0) throw new ConfigError(incomplete);
  const capped = checkBlockCap([...layers].reverse().find((layer) => layer.config.maxBlocks !== undefined)?.file ?? lastFile, merged.maxBlocks, env);
  if (capped.length > 0) throw new ConfigError(capped);

  const cores = machineCores();
  return {
    dir: files.dir,
    hash: files.hash,
    gates,
    maxBlocks: merged.maxBlocks ?? Math.min(DEFAULTS.maxBlocks, hostBlockCap(env) ?? DEFAULTS.maxBlocks),
    budget: merged.budget ?? DEFAULTS.budget,
    concurrency: merged.concurrency ?? cores,
    declaredConcurrency: merged.concurrency,
    ...(merged.concurrency === undefined ? { testRunners: testRunnersAtOnce(cores) } : {}),
    onTimeout: merged.onTimeout ?? DEFAULTS.onTimeout,
    outsideGit: merged.outsideGit ?? DEFAULTS.outsideGit,
    subagents: merged.subagents ?? false,
    tamper: merged.tamper ?? 'warn',
    whenAsking: merged.whenAsking ?? DEFAULT_WHEN_ASKING,
    workspaces: resolveWorkspaces(merged.workspaces),
    stopWideKeys: Object.keys(merged).filter((key) => key !== 'gates' && key !== '$schema'),
  };
}

function checkGates(file: string, gates: GateEntry[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const presets = loadPresets();
  const seen = new Set<string>();
  gates.forEach((gate, index) => {
    if (seen.has(gate.name)) {
      problems.push({ file, path: `gates[${index}].name`, message: `"${gate.name}" is used by an earlier gate too; give each gate its own name` });
    }
    seen.add(gate.name);
    if (gate.preset !== undefined && !presets.has(gate.preset)) {
      const guess = closestWord(gate.preset, presets.keys());
      const hint = guess ? `did you mean "${guess}"?` : `known presets: ${[...presets.keys()].join(', ')}`;
      problems.push({ file, path: `gates[${index}].preset`, message: `unknown preset "${gate.preset}"; ${hint}` });
    }
    if (gate.filter !== undefined && !FILTER_IDS.includes(gate.filter)) {
      const guess = closestWord(gate.filter, FILTER_IDS);
      const hint = guess ? `did you mean "${guess}"?` : `known filters: ${FILTER_IDS.join(', ')}`;
      problems.push({ file, path: `gates[${index}].filter`, message: `unknown filter "${gate.filter}"; ${hint}` });
    }
  });
  return problems;
}

// The personal file overrides top-level keys, and gates by name: fields of a gate it names again
// replace the team's, new names are added.
function mergeLayer(base: ConfigFile, layer: ConfigFile): ConfigFile {
  const gates = [...(base.gates ?? [])];
  for (const gate of layer.gates ?? []) {
    const index = gates.findIndex((existing) => existing.name === gate.name);
    if (index === -1) gates.push(gate);
    else gates[index] = { ...gates[index], ...gate };
  }
  return { ...base, ...layer, gates };
}

function resolveWorkspaces(setting: ConfigFile['workspaces']): ResolvedConfig['workspaces'] {
  if (setting === undefined) return undefined;
  return typeof setting === 'string' ? { kind: setting, affectsAll: undefined } : { kind: setting.kind, affectsAll: setting.affectsAll };
}

function resolveGate(gate: GateEntry, dir: string): ResolvedGate {
  const preset = gate.preset === undefined ? undefined : loadPresets().get(gate.preset);
  return {
    name: gate.name,
    shortName: gate.name,
    configDir: dir,
    preset: preset?.id,
    ...(preset ? { kind: preset.kind } : {}),
    run: gate.run ?? preset?.run ?? [],
    shell: gate.shell ?? false,
    on: gate.on ?? (preset ? [...new Set([...preset.on, ...dependencyTriggers(preset)])] : ['**/*']),
    ignore: gate.ignore ?? preset?.ignore ?? [],
    timeoutSeconds: gate.timeout ?? preset?.timeout ?? DEFAULTS.timeoutSeconds,
    filter: gate.filter ?? preset?.filter ?? 'generic',
    tier: gate.run === undefined || keepsTier(preset, gate.run) ? preset?.related : undefined,
    fastOff: gate.related === false,
    ...(preset ? { fullRunOn: dependencyFullRuns(preset) } : {}),
    cwd: resolve(dir, gate.cwd ?? '.'),
    env: { ...preset?.env, ...gate.env },
    retries: gate.retries ?? 0,
    ...(gate.run === undefined && preset?.outputFails ? { outputFails: true } : {}),
  };
}

function knownKeys(path: PropertyKey[]): string[] {
  const shape = path.length === 0 ? configSchema.shape : gateSchema.shape;
  return Object.keys(shape);
}

/**
 * A gate keeps its preset's fast tier with a command of its own only where the tier reads that
 * command: mocha's, whose spec and options a project's script gave (init writes it so; the tier
 * runs the same command with the files in place of the spec).
 */
function keepsTier(preset: Preset | undefined, run: string | string[]): boolean {
  return preset?.id === 'mocha' && Array.isArray(run) && run[0] === 'mocha';
}
