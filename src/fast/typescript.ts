import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Planner } from './planner.js';

// A "references" array with at least one entry; comments in tsconfig are allowed, so a regex, not JSON.
const REFERENCES = /"references"\s*:\s*\[\s*\{/;
const BUILD = ['tsc', '-b', '--pretty', 'false'];
// The full run's .tsbuildinfo (a tsconfig with `incremental` or `composite` writes one) goes under
// gate's state too: `--incremental` because older TypeScript refuses `--tsBuildInfoFile` without it.
const FULL_CACHE = ['--incremental', '--tsBuildInfoFile', '{cache}/full.tsbuildinfo'];
// The whole program's .tsbuildinfo files (presets/tsc.json's fast tier, the full run) and the subset's.
const WHOLE_INFOS = ['tsconfig.tsbuildinfo', 'full.tsbuildinfo'];
const SUBSET_INFO = 'subset.tsbuildinfo';

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
  seedSubset(cacheDir);
  const run = [...(gate.run as string[]), '-p', subset.tsconfig, '--incremental', '--tsBuildInfoFile', `{cache}/${SUBSET_INFO}`];
  return { kind: 'fast', run, targets: [], why: `${subset.files} of ${subset.of} files: those the change reaches, and the declaration files and scripts` };
};

/**
 * Each subset check starts from the newest check of the whole program (the fast tier's or the full
 * run's .tsbuildinfo): tsc then re-checks only the files changed since and those their changes reach,
 * where its own .tsbuildinfo of another subset would leave every file that subset lacked to check cold.
 * Sound either way: tsc reuses a file's old diagnostics only when it and what it depends on are unchanged.
 */
function seedSubset(cacheDir: string): void {
  const newest = WHOLE_INFOS.map((name) => ({ path: join(cacheDir, name), mtime: statSync(join(cacheDir, name), { throwIfNoEntry: false })?.mtimeMs ?? -1 }))
    .filter((info) => info.mtime >= 0)
    .sort((a, b) => b.mtime - a.mtime)[0];
  if (newest === undefined) return;
  try {
    copyFileSync(newest.path, join(cacheDir, SUBSET_INFO));
  } catch {
    // No seed: the subset is checked from its own .tsbuildinfo, or cold.
  }
}

function hasReferences(cwd: string): boolean {
  try {
    return REFERENCES.test(readFileSync(join(cwd, 'tsconfig.json'), 'utf8'));
  } catch {
    return false;
  }
}

