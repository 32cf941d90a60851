import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { SetupError } from '../errors.js';
import { packageRoot } from '../package/package-root.js';
import { toCodeQuality } from '../report/code-quality.js';
import { gateFailures, type GateFailures } from '../report/gate-failures.js';
import { toJunit } from '../report/junit.js';
import { toSarif, type TamperReport } from '../report/sarif.js';
import type { GateResult } from '../runner/gate-result.js';
import { failingOn } from '../verdict/known-failures.js';

// Imported by `gate check` and `gate ci` only when a report is asked for: the writers load with it.

/** The report files `gate check` and `gate ci` write on request (docs/receipts-and-ci.md). */
export interface ReportFiles {
  sarif?: string;
  junit?: string;
  codequality?: string;
}

export interface PlaceInput {
  repoRoot: string;
  stateDir: string;
  gates: ResolvedGate[];
  results: GateResult[];
  /** The state key of the change's starting state, whose remembered failures are pre-existing. */
  baseKey: string | undefined;
}

/** Each gate's failures placed in the repository, marked pre-existing on gate's evidence. */
export function placeFailures(input: PlaceInput): GateFailures[] {
  const cwdOf = (name: string) => input.gates.find((gate) => gate.name === name)?.cwd ?? input.repoRoot;
  return gateFailures(input.results, { repoRoot: input.repoRoot, cwdOf, knownOf: failingOn(input.stateDir, input.baseKey) });
}

export function writeReportFiles(files: ReportFiles, gates: GateFailures[], tamper: TamperReport | undefined): void {
  if (files.sarif) writeOut(files.sarif, `${JSON.stringify(toSarif(gates, tamper, stopgateVersion()), null, 2)}\n`);
  if (files.junit) writeOut(files.junit, toJunit(gates));
  if (files.codequality) writeOut(files.codequality, `${JSON.stringify(toCodeQuality(gates, tamper), null, 2)}\n`);
}

export function stopgateVersion(): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
    return typeof manifest === 'object' && manifest !== null && 'version' in manifest ? String(manifest.version) : 'unknown';
  } catch {
    return 'unknown';
  }
}

export function writeOut(path: string, text: string): void {
  try {
    writeFileSync(resolve(path), text);
  } catch (error) {
    throw new SetupError(`cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
