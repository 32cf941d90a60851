import { goSyntax } from './syntax/go-syntax.js';
import { findAssertionHelpers, type ReadText } from './assertion-helpers.js';
import { jsSyntax, jsSyntaxWith } from './syntax/js-syntax.js';
import { pythonSyntax } from './syntax/python-syntax.js';
import { rustSyntax } from './syntax/rust-syntax.js';
import type { TestSyntax } from './syntax/types.js';

export type { Span, Strength, TestSyntax } from './syntax/types.js';

/** The syntax of the test file at `path`, by its extension; JavaScript's for anything else. */
export function syntaxFor(path: string): TestSyntax {
  if (/\.pyi?$/.test(path)) return pythonSyntax;
  if (path.endsWith('.go')) return goSyntax;
  if (path.endsWith('.rs')) return rustSyntax;
  return jsSyntax;
}

/** The same, and for JavaScript with the assertion helpers the file defines or imports from test code (`read`: a file by its root-relative path). */
export function syntaxWithHelpers(path: string, read: ReadText): TestSyntax {
  const syntax = syntaxFor(path);
  return syntax === jsSyntax ? jsSyntaxWith(findAssertionHelpers(path, read)) : syntax;
}
