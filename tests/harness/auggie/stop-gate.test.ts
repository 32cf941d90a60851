// gate, installed from its npm tarball with `npx gate init --harness auggie --yes`, as the Stop hook
// of the real Auggie CLI (`auggie --print`) against a mock of the Augment backend. The mock plays the
// agent. What this measures on Auggie 0.36.0: the hooks run and gate answers with Auggie's documented
// block, but Auggie ends the turn anyway — the model is never sent the report; the human reads it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN, writeFileCommand } from '../../claude/gate-project.mjs';
import { useTemplateProjects } from '../template-projects.js';
import { AUGGIE_VERSION, runAuggie } from './auggie-cli.js';
import { startAugmentMock, type AugmentMock } from './mock-augment.js';

const newProject = useTemplateProjects('auggie');

async function start(install: string[]): Promise<{ project: ReturnType<typeof newProject>; mock: AugmentMock }> {
  const mock = await startAugmentMock();
  const project = newProject({ closeWith: () => mock.close() });
  const init = project.gate('init', '--harness', 'auggie', ...install, '--no-check', '--yes');
  expect(init.code, `gate init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
  if (!install.includes('--personal')) project.commit('install gate');
  return { project, mock };
}

const breakSum = { tool: 'launch-process', input: { command: writeFileCommand('src/sum.ts', SUM_BROKEN), wait: true, max_wait_seconds: 60 } };

describe(`gate as the Stop hook of Auggie ${AUGGIE_VERSION}`, () => {
  it('writes .augment/settings.json: a Stop hook only, the project variable, the timeout in milliseconds', async () => {
    const { project } = await start([]);
    const settings = JSON.parse(project.read('.augment/settings.json')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    expect(Object.keys(settings.hooks)).toEqual(['Stop']);
    expect(settings.hooks['Stop']?.[0]?.hooks[0]?.command).toBe('"$AUGMENT_PROJECT_DIR"/node_modules/.bin/gate run --harness auggie');
    expect(settings.hooks['Stop']?.[0]?.hooks[0]?.timeout).toBeGreaterThanOrEqual(60_000);
  });

  it('runs the gates at the stop and answers with a block, which Auggie 0.36.0 shows to the human and never sends to the model', async () => {
    const { project, mock } = await start([]);
    mock.script([breakSum, { say: 'Refactored.' }, { say: 'Looking at the failure.' }]);
    const run = await runAuggie(project, mock, 'Refactor sum.');
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(project.read('src/sum.ts')).toBe(SUM_BROKEN);

    const stateDir = join(project.repo, '.git', 'gate');
    // The Stop hook ran the test gate, which failed.
    expect(existsSync(join(stateDir, 'logs', 'test.log'))).toBe(true);
    const reports = existsSync(join(stateDir, 'reports')) ? readdirSync(join(stateDir, 'reports')) : [];
    expect(reports).toHaveLength(1);

    // The human reads the block line and the report (Auggie prints a Stop hook's systemMessage).
    expect(run.stdout).toMatch(/gate: refused the stop \(block 1 of 3\): test failed/);
    expect(run.stdout).toMatch(/gate: 1 of \d+ checks failed \(test\); stop refused, block 1 of 3\./);

    // The model was called for the tool call and for the final answer, and never again: the block was dropped.
    expect(mock.chats).toHaveLength(2);
    for (const chat of mock.chats) expect(JSON.stringify(chat)).not.toMatch(/stop refused/);

    // The run ended on a block: in a pipeline, `gate verdict` is what fails the job.
    const verdict = project.gate('verdict');
    expect(verdict.code, `${verdict.stdout}\n${verdict.stderr}`).toBe(1);
  });

  it('installs for one developer in the uncommitted .augment/settings.local.json, which Auggie reads too', async () => {
    const { project, mock } = await start(['--personal']);
    expect(project.exists('.augment/settings.json')).toBe(false);
    expect(project.status()).not.toContain('?? .augment/settings.local.json');
    mock.script([breakSum, { say: 'Refactored.' }]);
    const run = await runAuggie(project, mock, 'Refactor sum.');
    expect(run.stdout).toMatch(/gate: refused the stop \(block 1 of 3\): test failed/);
    expect(mock.chats).toHaveLength(2);
  });
});
