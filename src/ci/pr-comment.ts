import { gateTable } from '../report/gate-table.js';
import { isRed, type GateFailures, type PlacedFailure } from '../report/gate-failures.js';
import type { Receipt } from '../receipt/receipt.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import type { CiRun, CiVerdict } from './judge-ci.js';
import { ciVerdictLine } from './render-ci.js';
import { COMMENT_MARKER } from './upsert-comment.js';


const FIRST_FAILURES = 5;
const KEPT_LINES = 20;
const MAX_FINDINGS = 20;
// GitHub refuses a comment over 65,536 characters.
const MAX_BODY = 60_000;

export interface CommentInput {
  run: CiRun;
  verdict: CiVerdict;
  gates: GateFailures[];
  /** The run sealed as a receipt (src/receipt/), or why there is none. */
  receipt: Receipt | { missing: string[] };
  version: string;
}

/**
 * The pull request's comment, edited in place on every run: the verdict, what ran and what was
 * skipped, each red gate's first failures, the tamper findings, and the digest that binds the run
 * to its commit, tree and config.
 */
export function commentBody(input: CommentInput): string {
  const { run, verdict } = input;
  const lines = [COMMENT_MARKER, `### gate ci: ${verdict.ok ? '✅ PASS' : '❌ FAIL'}`, '', ciVerdictLine(run, verdict), '', ...gateTable(run.rows)];
  for (const gate of input.gates.filter(isRed)) lines.push('', `**${inline(gate.gate)}**: ${inline(gate.outcome)}`, '', ...firstFailures(gate));
  const findings = [...run.tamper.findings, ...(run.tamper.recorded?.findings ?? [])];
  if (findings.length > 0) lines.push('', `**tamper check**: ${findings.length} ${findings.length === 1 ? 'finding' : 'findings'}${verdict.tamperBlocks ? ', blocking' : ', warn only'}`, '', ...listFindings(findings));
  lines.push('', footer(input.receipt, input.version));
  const body = `${lines.join('\n')}\n`;
  return body.length <= MAX_BODY ? body : `${body.slice(0, MAX_BODY)}\n\n… cut to fit a comment: the job summary has the whole report.\n`;
}

function firstFailures(gate: GateFailures): string[] {
  if (gate.failures.length === 0) {
    const kept = gate.kept.slice(0, KEPT_LINES);
    return kept.length === 0 ? [`\`${inline(gate.command)}\``] : fenced([`$ ${gate.command}`, ...kept, ...(gate.kept.length > KEPT_LINES ? [`… ${gate.kept.length - KEPT_LINES} more lines`] : [])]);
  }
  const shown = gate.failures.slice(0, FIRST_FAILURES).map(describeFailure);
  const more = gate.failures.length - shown.length;
  return more > 0 ? [...shown, `- … and ${more} more (the job summary has them)`] : shown;
}

function describeFailure(failure: PlacedFailure): string {
  const where = failure.path === undefined ? '' : `\`${failure.path}${failure.line === undefined ? '' : `:${failure.line}`}\` `;
  const text = failure.rule !== undefined ? `${failure.rule}: ${failure.message}` : failure.message === '' ? failure.id : `${failure.id}: ${failure.message}`;
  return `- ${where}${inline(text)}${failure.preExisting ? ' _(failed before this change too)_' : ''}`;
}

function listFindings(findings: TamperFinding[]): string[] {
  const shown = findings.slice(0, MAX_FINDINGS).map((finding) => `- \`${finding.path}${finding.line === undefined ? '' : `:${finding.line}`}\` ${inline(finding.detail)}`);
  return findings.length > MAX_FINDINGS ? [...shown, `- … and ${findings.length - MAX_FINDINGS} more`] : shown;
}

function footer(receipt: CommentInput['receipt'], version: string): string {
  if ('missing' in receipt) return `<sub>no receipt: not every gate ran (${inline(receipt.missing.join(', '))}) · stopgate ${version}</sub>`;
  const changed = receipt.tree.changedFiles === 0 ? '' : ` (${receipt.tree.changedFiles} uncommitted)`;
  return `<sub>commit \`${(receipt.tree.head ?? 'none').slice(0, 12)}\`${changed}, tree \`${receipt.tree.digest}\`, config \`${receipt.config}\`, receipt digest \`${receipt.digest}\` · stopgate ${version}</sub>`;
}

// One line of a tool's or a config's words: a newline would end the list item, `<` open HTML, and Markdown's marks change the text.
function inline(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]<>|]/g, (mark) => `\\${mark}`)
    .trim();
}

function fenced(lines: string[]): string[] {
  const text = lines.join('\n');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}text`, text, fence];
}
