import { createHash } from 'node:crypto';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import { isRed, type GateFailures, type PlacedFailure } from './gate-failures.js';

/** What the tamper check found, and whether it fails the run (`--tamper block`) or only warns. */
export interface TamperReport {
  findings: TamperFinding[];
  blocking: boolean;
}

// Rule ids for what has no rule of its own: a failing test, and a gate that failed without naming a failure.
const TEST_RULE = 'failing-test';
const GATE_RULES: Record<string, string> = { failed: 'gate-failed', 'timed-out': 'gate-timed-out', 'not-started': 'gate-not-started' };
const GATE_RULE_TEXT: Record<string, string> = {
  [TEST_RULE]: 'A test failed',
  'gate-failed': 'The gate failed without naming a test or a diagnostic',
  'gate-timed-out': 'The gate timed out: no verdict',
  'gate-not-started': 'The gate could not start: no verdict',
};
const TAMPER_TEXT: Record<TamperFinding['kind'], string> = {
  skip: 'A test or suite was skipped',
  only: 'Only some tests run (.only)',
  todo: 'A test was turned into a todo',
  'deleted-test': 'A test or test file was deleted',
  'emptied-test': 'A test was emptied of its assertions',
  'weakened-check': 'A check was weakened (a disable comment, a looser setting)',
  'weakened-test': 'An expectation was changed to what the code returned',
  'gate-config': "gate's own configuration was changed to check less",
};
// A gate that names no failure shows what the agent would read of it; SARIF viewers show the message whole.
const KEPT_LINES = 40;

/**
 * SARIF 2.1.0 (the OASIS standard code scanning reads): one run per gate, named after its tool, each
 * failure a result with its rule, file and line, `baselineState` "unchanged" when it failed on the
 * change's starting state too, else "new"; the tamper findings in a run of their own.
 */
export function toSarif(gates: readonly GateFailures[], tamper: TamperReport | undefined, version: string): object {
  const runs = gates.filter((gate) => gate.status !== 'skipped').map((gate) => gateRun(gate, version));
  if (tamper) runs.push(tamperRun(tamper, version));
  return { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs };
}

function gateRun(gate: GateFailures, version: string): object {
  const results = gate.failures.map((failure) => failureResult(gate.gate, failure));
  if (isRed(gate) && (gate.failures.length === 0 || gate.status !== 'failed')) results.push(gateResult(gate));
  const ruleIds = [...new Set(results.map((result) => result.ruleId))];
  return {
    tool: { driver: { name: toolName(gate), rules: ruleIds.map((id) => ({ id, shortDescription: { text: GATE_RULE_TEXT[id] ?? `${toolName(gate)}: ${id}` } })) } },
    automationDetails: { id: `stopgate/${gate.gate}/` },
    invocations: [{ commandLine: gate.command, executionSuccessful: gate.status !== 'timed-out' && gate.status !== 'not-started' }],
    properties: { gate: gate.gate, outcome: gate.outcome, stopgateVersion: version },
    results,
  };
}

interface SarifResult {
  ruleId: string;
  [key: string]: unknown;
}

function failureResult(gate: string, failure: PlacedFailure): SarifResult {
  const ruleId = failure.rule ?? TEST_RULE;
  const text = failure.rule !== undefined || failure.message === '' ? failure.message || failure.id : `${failure.id}: ${failure.message}`;
  return {
    ruleId,
    level: 'error',
    message: { text },
    ...locations(failure.path, failure.line),
    baselineState: failure.preExisting ? 'unchanged' : 'new',
    partialFingerprints: { 'stopgateFailureId/v1': fingerprint(`${gate}\0${failure.id}`) },
  };
}

function gateResult(gate: GateFailures): SarifResult {
  const ruleId = GATE_RULES[gate.status] ?? 'gate-failed';
  const kept = gate.kept.length > KEPT_LINES ? [...gate.kept.slice(0, KEPT_LINES), `… ${gate.kept.length - KEPT_LINES} more lines`] : gate.kept;
  return {
    ruleId,
    level: 'error',
    message: { text: [`${gate.gate}: ${gate.outcome} — ${gate.command}`, ...kept].join('\n') },
    baselineState: 'new',
    partialFingerprints: { 'stopgateFailureId/v1': fingerprint(`${gate.gate}\0${ruleId}`) },
  };
}

function tamperRun(tamper: TamperReport, version: string): object {
  const kinds = [...new Set(tamper.findings.map((finding) => finding.kind))];
  return {
    tool: { driver: { name: 'stopgate tamper check', version, rules: kinds.map((kind) => ({ id: `tamper/${kind}`, shortDescription: { text: TAMPER_TEXT[kind] } })) } },
    automationDetails: { id: 'stopgate/tamper/' },
    results: tamper.findings.map((finding) => ({
      ruleId: `tamper/${finding.kind}`,
      level: tamper.blocking ? 'error' : 'warning',
      message: { text: finding.detail },
      ...locations(finding.path, finding.line),
      baselineState: 'new',
      partialFingerprints: { 'stopgateFailureId/v1': fingerprint(`tamper\0${finding.path}\0${finding.detail}`) },
    })),
  };
}

function locations(path: string | undefined, line: number | undefined): { locations?: object[] } {
  if (path === undefined || path === '') return {};
  const region = line !== undefined && Number.isInteger(line) && line >= 1 ? { region: { startLine: line } } : {};
  // A URI reference: a space or `#` in a file name must be escaped, the slashes kept.
  const uri = path.split('/').map(encodeURIComponent).join('/');
  return { locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' }, ...region } }] };
}

// Code scanning follows a result across commits by it: the gate and the failure's identity, never its line.
function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function toolName(gate: GateFailures): string {
  if (gate.tool !== 'generic') return gate.tool;
  return gate.command.split(/\s+/).find((word) => word !== '' && !/^(npx|pnpm|yarn|bunx|exec|run|uv|poetry|python3?|-m)$/.test(word)) ?? gate.gate;
}
