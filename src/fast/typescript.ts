import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Planner } from './fast-plan.js';

// A "references" array with at least one entry; comments in tsconfig are allowed, so a regex, not JSON.
const REFERENCES = /"references"\s*:\s*\[\s*\{/;
const BUILD = ['tsc', '-b', '--pretty', 'false'];
// The full run's .tsbuildinfo (a tsconfig with `incremental` or `composite` writes one) goes under
// gate's state too: `--incremental` because older TypeScript refuses `--tsBuildInfoFile` without it.
const FULL_CACHE = ['--incremental', '--tsBuildInfoFile', '{cache}/full.tsbuildinfo'];

/**
 * tsc: with project references `tsc -b`, the only command that checks every project (`tsc --noEmit`
 * on a solution tsconfig checks nothing), incremental by design; otherwise `--incremental` with the
 * .tsbuildinfo under gate's state, never in the user's tree.
 */
export const planTypescript: Planner = async ({ gate, files, mode, cacheDir }) => {
  if (hasReferences(gate.cwd)) {
    // Not --noEmit: a project that another references may not disable emit (TS6310), even on 5.6+.
    const why = 'tsconfig.json has project references: tsc -b (incremental; outputs and .tsbuildinfo where the tsconfigs put them)';
    return mode === 'full' ? { kind: 'full', run: BUILD, why } : { kind: 'fast', run: BUILD, targets: [], why };
  }
  if (mode === 'full') {
    const why = 'the full run, its .tsbuildinfo (if any) under gate\'s state';
    return Array.isArray(gate.run) ? { kind: 'full', run: [...gate.run, ...FULL_CACHE], why } : { kind: 'full', why };
  }
  const incremental = 'incremental: the .tsbuildinfo under gate\'s state';
  // The preset's own command only: a gate that names its tsconfig (-p) checks a program gate doesn't read.
  const plain = Array.isArray(gate.run) && !gate.run.some((word) => word === '-p' || word === '--project' || word.startsWith('--project='));
  if (!plain || cacheDir === undefined || files.length === 0) return { kind: 'fast', run: gate.tier.run, targets: [], why: incremental };
  const subset = (await import('./tsc-subset.js')).planTscSubset(gate.cwd, files, cacheDir);
  if ('why' in subset) return { kind: 'fast', run: gate.tier.run, targets: [], why: `${incremental} (the whole program: ${subset.why})` };
  const run = [...(gate.run as string[]), '-p', subset.tsconfig, '--incremental', '--tsBuildInfoFile', '{cache}/subset.tsbuildinfo'];
  return { kind: 'fast', run, targets: [], why: `${subset.files} of ${subset.of} files: those the change reaches, and the declaration files and scripts` };
};

function hasReferences(cwd: string): boolean {
  try {
    return REFERENCES.test(readFileSync(join(cwd, 'tsconfig.json'), 'utf8'));
  } catch {
    return false;
  }
}

