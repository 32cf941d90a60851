import type { Preset } from '../config/schema.js';
import type { Detection } from './detect-presets.js';
import { emptySuite } from './find-test-files.js';

/**
 * A test runner with no test to run fails its full run ("No test files found", pytest's exit 5):
 * such a gate would be red on a clean checkout and refuse every stop, so init writes none, and says why.
 */
export function dropEmptySuites(detection: Detection, dir: string, presets: Map<string, Preset>, find = emptySuite): Detection {
  const empty = detection.presets.flatMap((chosen) => {
    if (presets.get(chosen.preset)?.kind !== 'test') return [];
    const why = find(chosen.preset, dir);
    return why === undefined ? [] : [{ chosen, why }];
  });
  if (empty.length === 0) return detection;
  const notes = empty.map(({ chosen, why }) => `no ${chosen.gateName} gate: ${chosen.preset} is set up (${chosen.reasons.join('; ')}), but ${why}. Add the gate once there are tests.`);
  return {
    ...detection,
    presets: detection.presets.filter((chosen) => !empty.some((entry) => entry.chosen === chosen)),
    notes: [...detection.notes, ...notes],
    emptySuites: empty.map(({ chosen }) => chosen.preset),
  };
}
