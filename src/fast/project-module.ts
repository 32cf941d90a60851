import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * A package as the project's own tools load it from `cwd` (its TypeScript, its esbuild), when it has
 * one exporting every function in `needs`; undefined otherwise. Loaded only where it is used: such
 * packages are megabytes.
 */
export function requireFromProject<T>(cwd: string, name: string, needs: readonly string[]): T | undefined {
  try {
    const loaded = createRequire(join(cwd, 'noop.js'))(name) as Record<string, unknown>;
    return needs.every((key) => typeof loaded[key] === 'function') ? (loaded as T) : undefined;
  } catch {
    return undefined;
  }
}
