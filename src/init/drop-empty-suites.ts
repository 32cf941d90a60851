import type { Preset } from '../config/schema.js';
import type { Detection } from './detect-presets.js';
import { emptySuite } from './find-test-files.js';
import { findMochaSpec, type MochaSpec } from './mocha-spec.js';

/**
 * A test runner with no test to run fails its full run ("No test files found", pytest's exit 5):
 * such a gate would be red on a clean checkout and refuse every stop, so init writes none, and says why.
 */
export function dropEmptySuites(given: Detection, dir: string, presets: Map<string, Preset>, find = emptySuite): Detection {
  const mocha = given.presets.some((chosen) => chosen.preset === 'mocha') ? findMochaSpec(dir) : undefined;
  const detection = mocha?.kind === 'script' ? withScriptSpec(given, mocha) : given;
  const empty = detection.presets.flatMap((chosen) => {
    if (presets.get(chosen.preset)?.kind !== 'test' || chosen.run !== undefined) return [];
    const why = chosen.preset === 'mocha' ? (mocha?.kind === 'none' ? mocha.why : undefined) : find(chosen.preset, dir);
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

/** A mocha gate whose tests only a package.json script names runs that script's command (src/init/mocha-spec.ts). */
function withScriptSpec(detection: Detection, spec: MochaSpec & { kind: 'script' }): Detection {
  const reason = `its tests are the spec of the package.json script "${spec.script}" (${spec.run.join(' ')}), which the gate runs`;
  return { ...detection, presets: detection.presets.map((chosen) => (chosen.preset === 'mocha' ? { ...chosen, run: spec.run, reasons: [...chosen.reasons, reason] } : chosen)) };
}
