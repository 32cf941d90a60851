import { stripJsComments } from '../strip-js-comments.js';

// What a change in types alone touches, somewhere near it: annotations, generics, assertions,
// declarations that emit nothing, decorators (whose metadata may record a type).
const TYPE_SYNTAX = /[:<>?!@]|\b(?:interface|type|as|satisfies|implements|declare|enum|abstract|readonly|public|private|protected|override|namespace|module|keyof|infer|is|asserts|accessor|import|export)\b/;
const CONTEXT = 16;

/**
 * A cheap look before TypeScript is loaded (a second or so): whether the two versions could run
 * the same code. False when the text that differs, comments and runs of whitespace left out, has
 * nothing of TypeScript's types in or next to it — a change in code. True is only a maybe.
 */
export function mayRunTheSame(before: string, after: string): boolean {
  const a = stripJsComments(before).replace(/\s+/g, ' ');
  const b = stripJsComments(after).replace(/\s+/g, ' ');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const from = Math.max(0, start - CONTEXT);
  const differs = `${a.slice(from, a.length - end + CONTEXT)}\n${b.slice(from, b.length - end + CONTEXT)}`;
  return a.slice(start, a.length - end).trim() === '' || b.slice(start, b.length - end).trim() === '' || TYPE_SYNTAX.test(differs);
}
