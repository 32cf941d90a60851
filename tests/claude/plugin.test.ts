// The package doubles as a Claude Code plugin: installed from a local marketplace directory (the
// installed package itself), it gates every repository that has a gate config.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { claudeBinPath } from './claude-cli.mjs';
import { SUM_BROKEN, SUM_OK } from './gate-project.mjs';
import { contextIn, edit, say, useScenarios } from './scenario.js';

const scenario = useScenarios();

function claudeCli(args: string[], configDir: string, cwd: string) {
  const result = spawnSync(claudeBinPath(), args, {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: configDir, CLAUDE_CONFIG_DIR: configDir, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  expect(result.status, `claude ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('gate as a Claude Code plugin', () => {
  it('installs from the package as a local marketplace and blocks a broken edit in a repo with a gate config', async () => {
    const run = await scenario('none');
    const { project } = run;
    const marketplace = join(inject('gateTemplate').dir, 'node_modules', 'stopgate');
    claudeCli(['plugin', 'marketplace', 'add', marketplace], project.configDir, project.repo);
    expect(claudeCli(['plugin', 'install', 'stopgate@stopgate'], project.configDir, project.repo)).toMatch(/installed plugin: stopgate@stopgate/i);
    project.write('gate.config.json', `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }] }, null, 2)}\n`);
    project.commit('gate config only: no hooks in the repository');

    const agent = await run.run('Refactor sum, then fix it.', [edit('src/sum.ts', SUM_BROKEN), say('Refactored.'), edit('src/sum.ts', SUM_OK), say('Fixed.')]);
    expect(agent.blocked).toEqual([2]);
    expect(contextIn(agent.sent[2] ?? '')).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(agent.sent[2]).toContain('expected -1 to be 3');
    expect(agent.main).toHaveLength(4);
  });

  it('does nothing in a repository without a gate config', async () => {
    const run = await scenario('none');
    const { project } = run;
    claudeCli(['plugin', 'marketplace', 'add', join(inject('gateTemplate').dir, 'node_modules', 'stopgate')], project.configDir, project.repo);
    claudeCli(['plugin', 'install', 'stopgate@stopgate'], project.configDir, project.repo);
    const agent = await run.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), say('Refactored.')]);
    expect(agent.blocked).toEqual([]);
    expect(agent.main).toHaveLength(2);
  });
});
