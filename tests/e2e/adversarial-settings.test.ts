import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChanges } from '../../src/init/apply-changes.js';
import { vitestProject } from '../helpers/fixtures.js';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

function project(extra: Record<string, string> = {}): TempRepo {
  const files = vitestProject();
  delete files['gate.config.json'];
  return makeRepo({ ...files, ...extra }, { nodeModules: 'with-gate' });
}

const init = (r: TempRepo) => runBin(['init', '--yes'], { cwd: r.dir, env: r.env });

describe('settings files init must not damage', () => {
  it('a symlinked settings file: written through the link, which stays a link', () => {
    repo = project({ 'shared/claude-settings.json': '{\n  "model": "x"\n}\n' });
    execFileSync('mkdir', ['-p', join(repo.dir, '.claude')]);
    symlinkSync('../shared/claude-settings.json', join(repo.dir, '.claude', 'settings.json'));
    expect(init(repo).code).toBe(0);
    expect(lstatSync(join(repo.dir, '.claude', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(repo.dir, '.claude', 'settings.json'))).toBe('../shared/claude-settings.json');
    expect(JSON.parse(readFileSync(join(repo.dir, 'shared', 'claude-settings.json'), 'utf8'))).toMatchObject({ model: 'x', hooks: { Stop: expect.any(Array) } });
  });

  it('a read-only (immutable) settings file: refused before anything is written', () => {
    repo = project({ '.claude/settings.json': '{}\n' });
    const settings = join(repo.dir, '.claude', 'settings.json');
    execFileSync('chattr', ['+i', settings]);
    try {
      const result = init(repo);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/\.claude\/settings\.json is not writable .*nothing was written/);
      expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(false);
      expect(readFileSync(settings, 'utf8')).toBe('{}\n');
    } finally {
      execFileSync('chattr', ['-i', settings]);
    }
  });

  it.each([
    ['a BOM', '\ufeff{\n  "model": "x"\n}\n'],
    ['CRLF line endings', '{\r\n  "model": "x"\r\n}\r\n'],
  ])('%s is kept', (_name, text) => {
    repo = project({ '.claude/settings.json': text });
    expect(init(repo).code).toBe(0);
    const after = readFileSync(join(repo.dir, '.claude', 'settings.json'), 'utf8');
    expect(after.startsWith(text.startsWith('\ufeff') ? '\ufeff{' : '{\r\n')).toBe(true);
    if (text.includes('\r\n')) expect(after.replace(/\r\n/g, '')).not.toMatch(/\n/);
  });

  it.each([
    ['a comment', '{\n  // mine\n  "model": "x"\n}\n', /line 2, column 3: .*comment/i],
    ['a trailing comma', '{\n  "model": "x",\n}\n', /line 2, column 15: .*trailing comma/i],
  ])('%s (which Claude Code rejects) is refused with its position, file untouched', (_name, text, position) => {
    repo = project({ '.claude/settings.json': text });
    const result = init(repo);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(position);
    expect(readFileSync(join(repo.dir, '.claude', 'settings.json'), 'utf8')).toBe(text);
  });

  it('an edit made between read and write is detected and not clobbered', () => {
    repo = project({ '.claude/settings.json': '{}\n' });
    const path = join(repo.dir, '.claude', 'settings.json');
    writeFileSync(path, '{"edited": "by someone else"}\n');
    expect(() => applyChanges([{ path, display: '.claude/settings.json', before: '{}\n', after: '{"hooks": {}}\n' }])).toThrow(/changed while gate was working on it/);
    expect(readFileSync(path, 'utf8')).toBe('{"edited": "by someone else"}\n');
  });
});
