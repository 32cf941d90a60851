import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { HARNESS_NAMES } from '../../src/harness/adapters.js';
import { harnessOption } from '../../src/harness/unsupported-harness.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

// Issue 38 point 14: a harness whose docs page explains why gate cannot gate it got "unknown --harness".
const documented = readdirSync(join(PROJECT_ROOT, 'docs'))
  .flatMap((file) => /^harness-(.+)\.md$/.exec(file)?.[1] ?? [])
  .filter((name) => !(HARNESS_NAMES as readonly string[]).includes(name));

function messageFor(name: string): string {
  try {
    harnessOption(name);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`--harness ${name} was accepted`);
}

describe('--harness for a harness gate has a page for but no install', () => {
  it('every docs/harness-NAME.md without an install is one of them', () => {
    expect(documented.sort()).toEqual(['amp', 'cline', 'devin', 'goose', 'junie', 'openhands']);
  });

  it.each(documented)('%s: a usage error that says why and names its page', (name) => {
    const message = messageFor(name);
    expect(message).toMatch(new RegExp(`^--harness ${name} is not supported: \\S`));
    expect(message).toContain(`See docs/harness-${name}.md (${join(PROJECT_ROOT, 'docs', `harness-${name}.md`)}).`);
    expect(message).not.toContain('unknown');
  });

  it('cline and openhands: the reason their pages give', () => {
    expect(messageFor('cline')).toContain('no hook that can refuse the end of a task');
    expect(messageFor('openhands')).toContain('could not be installed here');
    expect(messageFor('devin')).toContain('run `gate init` without --harness');
  });

  it('a name with no page is still unknown, with the list; a supported one is taken as it is', () => {
    expect(messageFor('clien')).toBe(`unknown --harness "clien"; one of ${HARNESS_NAMES.join(', ')}`);
    expect(harnessOption('codex')).toBe('codex');
  });
});
