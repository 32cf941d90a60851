import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// xstate's .gitignore ignores `.claude`: init wrote .claude/settings.json, said "commit it", and
// `git add -A` staged none of it; doctor said "All is well". Every teammate's stop went ungated.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

function project(gitignore: string): TempRepo {
  const files = { '.gitignore': gitignore, 'package.json': `${JSON.stringify({ name: 'p', devDependencies: { stopgate: '0.1.0' } }, null, 2)}\n` };
  return makeRepo(files, { nodeModules: 'with-gate' });
}
const gate = (args: string[]) => runBin(args, { cwd: repo.dir, env: repo.env });
const staged = () => {
  repo.git('add', '-A');
  return repo.git('diff', '--cached', '--name-only').split('\n').filter(Boolean);
};

describe('gate init when git ignores a team file', () => {
  for (const line of ['.claude', '.claude/']) {
    it(`"${line}" in .gitignore: init names it and the fix, writes the re-include lines on the same yes, and git add -A stages the hook file`, () => {
      repo = project(`node_modules/\n${line}\n`);
      const result = gate(['init', '--yes', '--no-check']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`git ignores .claude/settings.json (.gitignore:2: ${line}): \`git add -A\` would leave it out`);
      expect(result.stdout).toContain('`git add -f .claude/settings.json`');
      expect(result.stdout).toContain('+!/.claude/\n+/.claude/*\n+!/.claude/settings.json');
      expect(result.stdout).toMatch(/Commit .*\.gitignore/);
      expect(staged()).toEqual(expect.arrayContaining(['.claude/settings.json', 'gate.config.json', '.gitignore']));
      expect(result.stdout).toContain('All is well.');
    });
  }

  it('a --dry-run writes nothing, and says the same', () => {
    repo = project('node_modules/\n.claude\n');
    const result = gate(['init', '--dry-run', '--no-check']);
    expect(result.stdout).toContain('git ignores .claude/settings.json (.gitignore:2: .claude)');
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('a personal install is meant to be ignored: nothing is said', () => {
    repo = project('node_modules/\n.claude\n');
    const result = gate(['init', '--personal', '--yes', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('git ignores');
    expect(result.stdout).not.toContain('!/.claude/');
  });
});

describe('gate doctor when git ignores the team hook file', () => {
  it('reports it with the fix; after git add -f (tracked) it is fine', () => {
    repo = project('node_modules/\n.claude\n');
    repo.write('.claude/settings.json', `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run', timeout: 600 }] }] } })}\n`);
    repo.write('gate.config.json', '{"gates": []}\n');
    repo.commit('the team install, as init wrote it before');
    const before = gate(['doctor']);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('✖ git ignores .claude/settings.json (.gitignore:2: .claude) and does not track it: no teammate gets it');
    expect(before.stdout).toContain('!/.claude/  /.claude/*  !/.claude/settings.json');
    expect(before.stdout).toContain('git add -f .claude/settings.json');
    repo.git('add', '-f', '.claude/settings.json');
    expect(gate(['doctor']).stdout).not.toContain('git ignores');
  });
});
