import { isGateConfig, isHookFile, isTestPath, languageOf } from './classify-path.js';
import { describeGateConfigChange } from './gate-config-change.js';
import { normalize, scanAddedLines } from './scan-file.js';
import { describeScriptChange } from './script-change.js';
import type { FileChange, TamperFinding } from './tamper-finding.js';
import { codeLines, isCommentLine, isDeclaration } from './test-declarations.js';

const PER_LINE = new Set<TamperFinding['kind']>(['skip', 'only', 'todo']);

/**
 * Every finding in a change, sorted and without repeats. Pure: the caller reads git and the files.
 * `scripts`: the check scripts the gates run, each with a gate that runs it (src/tamper/check-scripts.ts).
 */
export function scanChanges(changes: FileChange[], scripts: ReadonlyMap<string, string> = new Map()): TamperFinding[] {
  // A line removed in one place and added in another was moved, not written: a renamed test file
  // brings its old skips along, and a test moved to another file was not deleted.
  const removed = new Map<string, number>();
  const addedAt = new Map<string, Set<string>>();
  for (const change of changes) {
    for (const line of change.removed) removed.set(normalize(line), (removed.get(normalize(line)) ?? 0) + 1);
    for (const line of change.added) {
      const key = normalize(line.text);
      addedAt.set(key, (addedAt.get(key) ?? new Set()).add(change.path));
    }
  }
  const isNew = (text: string) => {
    const key = normalize(text);
    const left = removed.get(key) ?? 0;
    if (left === 0) return true;
    removed.set(key, left - 1);
    return false;
  };
  const findings: TamperFinding[] = [];
  for (const change of changes) {
    const gateConfig = isGateConfig(change.path) ? describeGateConfigChange(change) : undefined;
    // Reformatted (key order, line endings, indentation): it says what it said, so its lines are no news either.
    if (isGateConfig(change.path) && gateConfig === undefined) continue;
    const script = scripts.get(change.path);
    if (!change.deleted) findings.push(...scanAddedLines(change, isNew, script !== undefined));
    if (gateConfig !== undefined) findings.push({ path: change.path, kind: 'gate-config', detail: gateConfig });
    if (script !== undefined) findings.push(...describeScriptChange(change, script));
    const hook = hookChange(change);
    if (hook) findings.push({ path: change.path, kind: 'gate-config', detail: hook });
    const lost = lostTests(change, addedAt);
    if (lost) findings.push(lost);
  }
  return unique(findings).sort(byPlace);
}

/** A deleted test file, or one left without a single test, unless its tests turn up elsewhere in the change. */
function lostTests(change: FileChange, addedAt: ReadonlyMap<string, ReadonlySet<string>>): TamperFinding | undefined {
  if (!isTestPath(change.path)) return undefined;
  const declarations = change.removed.filter((line) => !isCommentLine(line) && isDeclaration(line));
  const elsewhere = (line: string) => [...(addedAt.get(normalize(line)) ?? [])].some((path) => path !== change.path);
  const moved = declarations.length > 0 && declarations.every(elsewhere);
  if (change.deleted) {
    const wasTest = change.baselineKnown ? declarations.length > 0 : languageOf(change.path) !== undefined;
    return wasTest && !moved ? { path: change.path, kind: 'deleted-test', detail: 'deletes the test file' } : undefined;
  }
  if (moved || change.current === undefined || !change.baselineKnown) return undefined;
  // Lines the change did not touch were there at the baseline too: tests wrapped in a new `/* … */`
  // remove no declaration line, yet leave none.
  const lines = change.current.split('\n');
  const touched = new Set(change.added.map((line) => line.line));
  const kept = lines.some((line, index) => !touched.has(index + 1) && !isCommentLine(line) && isDeclaration(line));
  if (declarations.length === 0 && !kept) return undefined;
  if (codeLines(change.current).some(isDeclaration)) return undefined;
  return { path: change.path, kind: 'emptied-test', detail: 'removes every test from the file' };
}

/** gate's hook taken out of (or changed in) a harness settings file. */
function hookChange(change: FileChange): string | undefined {
  if (!isHookFile(change.path)) return undefined;
  const mentionsGate = (line: string) => /\b(?:gate|stopgate)\b/.test(line);
  if (change.deleted) return !change.baselineKnown || change.removed.some(mentionsGate) ? `deletes ${change.path}, which runs gate` : undefined;
  const touched = change.removed.some(mentionsGate) || change.added.some((line) => mentionsGate(line.text));
  return touched && !change.created ? `changes the gate hook in ${change.path}` : undefined;
}

function unique(findings: TamperFinding[]): TamperFinding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.path}\0${finding.kind}\0${finding.detail}\0${PER_LINE.has(finding.kind) ? (finding.line ?? '') : ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function byPlace(a: TamperFinding, b: TamperFinding): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  const lines = (a.line ?? 0) - (b.line ?? 0);
  if (lines !== 0) return lines;
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.detail < b.detail ? -1 : a.detail > b.detail ? 1 : 0;
}
