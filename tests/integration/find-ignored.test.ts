import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findIgnored, parseCheckIgnore } from '../../src/init/find-ignored.js';
import { reincludeLines } from '../../src/init/gitignore-lines.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

/** Writes the lines findIgnored proposes where it says, then asks git what `git add -A` stages. */
function followFix(r: TempRepo, dir: string, files: string[]): string[] {
  const ignored = findIgnored(join(r.dir, dir), r.dir, files) ?? [];
  for (const file of ignored) appendFileSync(join(r.dir, dir, file.ignoreFile), `${file.lines.join('\n')}\n`);
  r.git('add', '-A');
  return r.git('diff', '--cached', '--name-only').split('\n').filter(Boolean);
}

describe('findIgnored (real git)', () => {
  for (const pattern of ['.claude', '.claude/', '.claude/*', '**/settings.json', '*.json']) {
    it(`a .gitignore line "${pattern}": the proposed lines make git add -A stage the file, and only it`, () => {
      repo = makeRepo({ '.gitignore': `${pattern}\n`, 'README.md': 'x\n' });
      repo.write('.claude/settings.json', '{}\n');
      repo.write('.claude/settings.local.json', '{}\n');
      repo.write('.claude/cache/x.json', '{}\n');
      const ignored = findIgnored(repo.dir, repo.dir, ['.claude/settings.json']);
      expect(ignored).toHaveLength(1);
      expect(ignored?.[0]).toMatchObject({ file: '.claude/settings.json', where: '.gitignore:1', pattern, ignoreFile: '.gitignore' });
      const others = ['.claude/settings.local.json', '.claude/cache/x.json'];
      const keptOut = others.filter((file) => (findIgnored(repo?.dir ?? '', repo?.dir ?? '', [file]) ?? []).length > 0);
      const staged = followFix(repo, '.', ['.claude/settings.json']);
      expect(staged).toContain('.claude/settings.json');
      // What the pattern kept out stays out.
      expect(others.filter((file) => !staged.includes(file))).toEqual(keptOut);
    });
  }

  it('a package of a monorepo ignored by the root and by its own .gitignore', () => {
    repo = makeRepo({ '.gitignore': '.claude\n', 'packages/a/.gitignore': 'gate.config.json\n', 'README.md': 'x\n' });
    repo.write('packages/a/.claude/settings.json', '{}\n');
    repo.write('packages/a/gate.config.json', '{}\n');
    const ignored = findIgnored(join(repo.dir, 'packages/a'), repo.dir, ['.claude/settings.json', 'gate.config.json']);
    expect(ignored?.map((file) => [file.file, file.ignoreFile])).toEqual([
      ['.claude/settings.json', '../../.gitignore'],
      ['gate.config.json', '.gitignore'],
    ]);
    const staged = followFix(repo, 'packages/a', ['.claude/settings.json', 'gate.config.json']);
    expect(staged).toEqual(expect.arrayContaining(['packages/a/.claude/settings.json', 'packages/a/gate.config.json']));
  });

  it('.git/info/exclude: the lines go into the root .gitignore, which git reads after it', () => {
    repo = makeRepo({ 'README.md': 'x\n' });
    appendFileSync(join(repo.dir, '.git', 'info', 'exclude'), '.claude/\n');
    repo.write('.claude/settings.json', '{}\n');
    const ignored = findIgnored(repo.dir, repo.dir, ['.claude/settings.json']);
    expect(ignored?.[0]).toMatchObject({ where: '.git/info/exclude:7', ignoreFile: '.gitignore' });
    expect(followFix(repo, '.', ['.claude/settings.json'])).toContain('.claude/settings.json');
    expect(readFileSync(join(repo.dir, '.gitignore'), 'utf8')).toBe('!/.claude/\n/.claude/*\n!/.claude/settings.json\n');
  });

  it('a file committed with git add -f is not reported: it reaches the team', () => {
    repo = makeRepo({ '.gitignore': '.claude\n', 'README.md': 'x\n' });
    repo.write('.claude/settings.json', '{}\n');
    expect(findIgnored(repo.dir, repo.dir, ['.claude/settings.json'])).toHaveLength(1);
    repo.git('add', '-f', '.claude/settings.json');
    expect(findIgnored(repo.dir, repo.dir, ['.claude/settings.json'])).toEqual([]);
  });

  it('a file not ignored, or brought back by a ! line, is not reported', () => {
    repo = makeRepo({ '.gitignore': '*.json\n!gate.config.json\n', 'README.md': 'x\n' });
    expect(findIgnored(repo.dir, repo.dir, ['gate.config.json', 'README.md'])).toEqual([]);
  });
});

describe('reincludeLines / parseCheckIgnore', () => {
  it('re-includes each directory from the excluded one down, then the file', () => {
    expect(reincludeLines('a/b/c.json', 0)).toEqual(['!/a/', '/a/*', '!/a/b/', '/a/b/*', '!/a/b/c.json']);
    expect(reincludeLines('a/b/c.json', 1)).toEqual(['!/a/b/', '/a/b/*', '!/a/b/c.json']);
    expect(reincludeLines('a/b/c.json', -1)).toEqual(['!/a/b/c.json']);
    expect(reincludeLines('we ird/[x].json', -1)).toEqual(['!/we\\ ird/\\[x\\].json']);
  });

  it('reads source, line, pattern and path from -v -z output', () => {
    expect(parseCheckIgnore('.gitignore\u00001\u0000.claude\u0000.claude/settings.json\u0000')).toEqual([{ source: '.gitignore', line: '1', pattern: '.claude', path: '.claude/settings.json' }]);
  });
});
