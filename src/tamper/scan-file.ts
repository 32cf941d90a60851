import { baseName, hasSections, isConfigPath, isGateConfig, isHookFile, isTestPath, languageOf } from './classify-path.js';
import { CONFIG_RULES, type ConfigRule } from './config-rules.js';
import { COMMAND_RULES, SUPPRESSION_RULES } from './check-rules.js';
import { keyChain, keysIn, type KeyChain } from './key-chain.js';
import type { LineRule } from './line-rule.js';
import { SKIP_RULES } from './skip-rules.js';
import type { AddedLine, FileChange, TamperFinding } from './tamper-finding.js';
import { isCommentLine, isDeclaration } from './test-declarations.js';

const MAX_LINE = 2000;

/**
 * Findings in the added lines of one file. `isNew` says whether an added line is really new, not
 * one moved from elsewhere in the change (a renamed test file brings its old `it.skip(` along).
 * `script`: a gate runs the file (`bash scripts/check`), so its commands are read whatever its name.
 */
export function scanAddedLines(change: FileChange, isNew: (text: string) => boolean, script = false): TamperFinding[] {
  const { path } = change;
  const language = languageOf(path);
  const test = isTestPath(path);
  const sources = [...SKIP_RULES, ...SUPPRESSION_RULES].filter(
    (group) => language !== undefined && group.languages.includes(language) && (group.scope === 'everywhere' || test),
  );
  const config = script || isConfigPath(path) || isGateConfig(path) || isHookFile(path);
  const configRules = config ? CONFIG_RULES.filter((rule) => rule.file.test(baseName(path))) : [];
  const lines = configRules.length > 0 && change.current !== undefined ? change.current.split('\n') : undefined;
  const removed = test ? new Set(change.removed.map(normalize)) : undefined;
  const findings: TamperFinding[] = [];
  const found = (line: AddedLine, rule: { kind: TamperFinding['kind'] }, detail: string | undefined) => {
    if (detail !== undefined) findings.push({ path, line: line.line, kind: rule.kind, detail });
  };
  for (const { line: number, text: whole } of change.added) {
    if (whole.trim() === '' || !isNew(whole)) continue;
    // Hand-written markers sit near the start of a line; a minified line is read only so far.
    const line = { line: number, text: whole.slice(0, MAX_LINE) };
    const comment = isCommentLine(line.text);
    for (const group of sources) {
      if (comment && !group.inComments) continue;
      for (const rule of group.rules) found(line, rule, matchLine(rule, line.text));
    }
    if (config && !comment) {
      for (const rule of COMMAND_RULES) found(line, rule, matchLine(rule, line.text));
    }
    if (configRules.length > 0 && !comment) {
      const chain = lines ? keyChain(lines, line.line - 1, hasSections(path)) : { own: keysIn(line.text).reverse(), parents: [] };
      for (const rule of configRules) found(line, { kind: 'weakened-check' }, matchConfig(rule, baseName(path), chain, line.text));
    }
    if (removed && comment && commentsOutTest(line.text, removed)) found(line, { kind: 'skip' }, 'comments out a test');
  }
  return findings;
}

function matchLine(rule: LineRule, text: string): string | undefined {
  const match = rule.pattern.exec(text);
  if (!match || (rule.alongside && !rule.alongside.test(text))) return undefined;
  return rule.detail(match);
}

export function matchConfig(rule: ConfigRule, name: string, chain: KeyChain, text: string): string | undefined {
  if (!rule.file.test(name)) return undefined;
  const around = [name, ...chain.own, ...chain.parents];
  if (rule.within && !around.some((key) => rule.within?.test(key))) return undefined;
  if (rule.notWithin && around.some((key) => rule.notWithin?.test(key))) return undefined;
  let key: string | undefined;
  if (rule.key) {
    const nearest = chain.own.length > 0 ? chain.own : chain.parents.slice(0, 1);
    key = nearest.find((candidate) => rule.key?.test(candidate));
    if (key === undefined) return undefined;
  }
  const match = rule.text ? rule.text.exec(text) : undefined;
  if (rule.text && !match) return undefined;
  return rule.detail(key, match ?? undefined);
}

/** `// it('works', …)` where the same line, uncommented, was removed from this file. */
function commentsOutTest(text: string, removed: ReadonlySet<string>): boolean {
  const code = text.replace(/^\s*(?:\/\/+|#+|\/\*+|\*)\s?/, '');
  return isDeclaration(code) && removed.has(normalize(code));
}

/** Lines compared across files: indentation and a trailing comma or semicolon do not matter. */
export function normalize(text: string): string {
  return text.trim().replace(/[,;]$/, '').trim();
}
