import type { ChosenPreset, Detection } from './detect-presets.js';
import { readGolangciConfig } from './golangci-config.js';

// The gates whose check golangci-lint makes itself when its config enables that linter.
const COVERED: Record<string, string> = { gofmt: 'gofmt', 'go-vet': 'govet' };

/**
 * Where golangci-lint runs, its config decides the Go checks: gofmt and go vet are left to it when it
 * enables them (one report per finding). Where it is not installed, gofmt and go vet are the checks
 * gate can make, and the note names the config's linters nothing gates.
 */
export function leaveToGolangci(detection: Detection, dir: string): Detection {
  const config = readGolangciConfig(dir);
  if (config === undefined) return detection;
  if (detection.presets.some((chosen) => chosen.preset === 'golangci-lint')) {
    const left = detection.presets.filter((chosen) => config.linters.includes(COVERED[chosen.preset] ?? ''));
    if (left.length === 0) return detection;
    const kept = detection.presets.filter((chosen) => !left.includes(chosen));
    const { notes } = withoutBothPresent(detection);
    for (const chosen of left) notes.push(`${chosen.preset} left out: golangci-lint runs ${COVERED[chosen.preset]} (${config.file} enables it).`);
    return { ...detection, presets: kept.map((chosen) => renamed(chosen, left, kept)), notes };
  }
  if (!detection.missingTools?.includes('golangci-lint')) return detection;
  const { notes } = withoutBothPresent(detection);
  const gated = new Set(detection.presets.map((chosen) => COVERED[chosen.preset]).filter((linter) => linter !== undefined));
  const rest = config.linters.filter((linter) => !gated.has(linter));
  if (rest.length === 0) return { ...detection, notes };
  const by = [...gated].map((linter) => (linter === 'govet' ? 'go vet' : linter));
  const note = `without golangci-lint, ${config.file}'s ${rest.join(', ')} ${rest.length === 1 ? 'is' : 'are'} not gated${by.length > 0 ? ` (${by.join(' and ')} ${by.length === 1 ? 'is' : 'are'}, by gate's own preset)` : ''}.`;
  return { ...detection, notes: [...notes, note] };
}

// pickConfigured's "go-vet and golangci-lint both present … chose all of them" no longer holds.
function withoutBothPresent(detection: Detection): Detection {
  return { ...detection, notes: detection.notes.filter((note) => !note.startsWith('go-vet and golangci-lint both present')) };
}

/** golangci-lint takes the kind's plain name ("lint") when the gate that had it was left to it. */
function renamed(chosen: ChosenPreset, left: ChosenPreset[], kept: ChosenPreset[]): ChosenPreset {
  if (chosen.preset !== 'golangci-lint') return chosen;
  const freed = left.find((gone) => gone.gateName === 'lint');
  return freed && !kept.some((other) => other.gateName === 'lint') ? { ...chosen, gateName: 'lint' } : chosen;
}
