// Claude Code started in a package of a workspace: it reads settings from there only, so the stop is
// gated only when `gate init --each-package` put gate's hook in that package too.
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { CLAUDE_CODE_VERSION, runClaude } from './claude-cli.mjs';
import { makeProject, SUM_BROKEN, SUM_OK, SUM_TEST, type GateProject } from './gate-project.mjs';
import { lastUserText, startMockAnthropic, type MockAnthropic } from './mock-anthropic.mjs';
import { carriesBlock, contextIn, edit, say } from './scenario.js';

const open: Array<{ project: GateProject; mock: MockAnthropic }> = [];
afterEach(async () => {
  for (const { project, mock } of open.splice(0)) {
    await mock.close();
    project.cleanup();
  }
});

/** The template project made an npm workspace with one package, packages/lib (vitest, hoisted), and gate installed at the root. */
async function workspace(initArgs: string[]) {
  const project = makeProject(inject('gateTemplate').dir);
  const mock = await startMockAnthropic();
  open.push({ project, mock });
  const manifest = JSON.parse(project.read('package.json')) as Record<string, unknown>;
  project.write('package.json', `${JSON.stringify({ ...manifest, workspaces: ['packages/*'] }, null, 2)}\n`);
  project.write('packages/lib/package.json', `${JSON.stringify({ name: 'lib', private: true, type: 'module', scripts: { test: 'vitest run' }, devDependencies: { vitest: '*' } }, null, 2)}\n`);
  project.write('packages/lib/src/sum.ts', SUM_OK);
  project.write('packages/lib/src/sum.test.ts', SUM_TEST);
  project.commit('packages/lib');
  const init = project.gate('init', ...initArgs, '--no-check', '--yes');
  expect(init.code, `gate init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
  project.commit('install gate');
  const launch = join(project.repo, 'packages', 'lib');
  const run = async () => {
    mock.script([edit('src/sum.ts', SUM_BROKEN), say('Refactored.'), edit('src/sum.ts', SUM_OK), say('Fixed.')]);
    const result = await runClaude({ cwd: launch, prompt: 'Refactor sum.', mockUrl: mock.url, configDir: project.configDir, env: project.env });
    expect(result.exitCode, `claude -p failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
    const sent = mock.mainRequests().map((request) => lastUserText(request));
    return { result, sent, blocked: sent.flatMap((text, index) => (carriesBlock(text) ? [index] : [])) };
  };
  return { project, init, run };
}

describe(`Claude Code ${CLAUDE_CODE_VERSION} started in a workspace package`, () => {
  it('is not gated by the root\'s hook alone, as init says', async () => {
    const { init, run } = await workspace([]);
    expect(init.stdout).toContain('Claude Code reads hooks only from the directory it is started in');
    const { result, blocked } = await run();
    expect(blocked).toEqual([]);
    expect(result.json?.result).toBe('Refactored.');
  });

  // The root's "test" script runs vitest over the workspace, so init leaves packages/lib to the
  // root config's test gate (docs/monorepos.md §5): the package's hook runs that gate.
  it('is gated after `gate init --each-package`: the package\'s hook blocks a broken edit and names the gate that covers it', async () => {
    const { project, run } = await workspace(['--each-package']);
    const settings = JSON.parse(project.read('packages/lib/.claude/settings.json')) as { hooks: { Stop: Array<{ hooks: Array<{ command: string }> }> } };
    const command = settings.hooks.Stop[0]?.hooks[0]?.command ?? '';
    expect(command).toBe('"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/gate run');
    const { result, sent, blocked } = await run();
    expect(blocked).toEqual([2]);
    expect(project.exists('packages/lib/gate.config.json')).toBe(false);
    expect(contextIn(sent[2] ?? '')).toMatch(/^gate: 1 of \d+ checks? failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(sent[2]).toContain('expected -1 to be 3');
    expect(result.json?.result).toBe('Fixed.');
  });
});
