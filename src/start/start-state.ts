import { isStartConfig, type StartConfig } from '../config/start-config.js';
import { environmentDigest, fingerprintEnvironment, isEnvironment, type Environment } from './environment.js';

/** Where the turn really started, captured at its prompt (src/verdict/capture-start.ts). */
export interface StartState {
  /** The snapshot digest of the tree at the prompt: the turn's baseline. */
  digest: string;
  /** A git tree (or commit) holding every file as it was; undefined when it could not be written. */
  tree: string | undefined;
  /** Why the tree could not be written (too many changed files, a git failure): said at a stop that needed it. */
  unwritten?: string;
  environment: Environment;
  /** The root config the turn started with: a stop after the turn deleted it runs its gates. */
  config?: StartConfig;
}

/**
 * The key evidence is kept under: a tree state and the environment it ran in. A result on the same
 * files with other packages installed says nothing about this one.
 */
export function stateKey(digest: string, environment: Environment): string {
  return `${digest}+${environmentDigest(environment)}`;
}

/** The key of the tree `digest` in the environment as it is now (`dirs`: the repository root and the project folder). */
export function stateKeyNow(digest: string, dirs: string[], env: NodeJS.ProcessEnv): string {
  return stateKey(digest, fingerprintEnvironment([...new Set(dirs)], env));
}

export function isStartState(value: unknown): value is StartState {
  if (typeof value !== 'object' || value === null) return false;
  const { digest, tree, environment, config } = value as Record<string, unknown>;
  return typeof digest === 'string' && (tree === undefined || typeof tree === 'string') && isEnvironment(environment) && (config === undefined || isStartConfig(config));
}
