import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { GATE_BIN, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  repo?.cleanup();
});

const twoGates = {
  gates: [
    { name: 'test', preset: 'vitest' },
    { name: 'docs', run: ['node', '-e', 'process.exit(0)'], on: ['**/*.md'] },
  ],
};

/** Progress messages in the order the server wrote them, whatever the client then delivers. */
let progressOnWire: string[] = [];

/**
 * The built bin's `gate mcp`, driven by the SDK's own client over stdio, in the repo's hermetic env.
 * Progress is read off the transport: the SDK's client hands a notification to `onprogress` a
 * microtask late, so one that arrives in the same read as the response is dropped.
 */
async function connect(at: TempRepo, args: string[] = []): Promise<Client> {
  const connected = new Client({ name: 'gate-test', version: '0.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [GATE_BIN, 'mcp', ...args], cwd: at.dir, env: at.env, stderr: 'pipe' });
  await connected.connect(transport);
  progressOnWire = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    if ('method' in message && message.method === 'notifications/progress') progressOnWire.push(String(message.params?.['message']));
    deliver?.(message);
  };
  return connected;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('gate mcp', () => {
  it('tells the model to check before claiming completion, and lists its tools', async () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    client = await connect(repo);
    expect(client.getServerVersion()).toMatchObject({ name: 'gate' });
    expect(client.getInstructions()).toMatch(/Call gate_check before you say the work is done/);
    expect(client.getInstructions()).toMatch(/do not skip, delete or weaken tests/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['gate_check', 'gate_receipt', 'gate_status']);
    expect(tools.find((tool) => tool.name === 'gate_check')?.outputSchema).toBeDefined();
  });

  it('runs the gates on a green tree (a receipt), then reports a broken one as the stop would, with structured results', async () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    client = await connect(repo);

    const nothing = await client.callTool({ name: 'gate_check', arguments: {} });
    expect(textOf(nothing)).toMatch(/^gate: nothing to check: no file changed since HEAD triggers a check\. Call gate_check with all: true/);
    expect(nothing.structuredContent).toMatchObject({ status: 'nothing-to-check', ok: true, gates: [] });

    const green = await client.callTool({ name: 'gate_check', arguments: { all: true } });
    expect(green.isError).toBeFalsy();
    expect(textOf(green)).toBe('gate: 2 of 2 checks passed (test, docs).\n');
    expect(green.structuredContent).toMatchObject({
      status: 'passed',
      ok: true,
      baseline: null,
      gates: [
        { name: 'test', status: 'passed', outcome: 'passed', exitCode: 0, failures: [] },
        { name: 'docs', status: 'passed', exitCode: 0, failures: [] },
      ],
    });

    const receipt = await client.callTool({ name: 'gate_receipt', arguments: {} });
    expect(receipt.structuredContent).toMatchObject({ state: 'pass', receipt: { verdict: 'pass', by: 'check' } });
    expect(textOf(receipt)).toMatch(/^PASS: every gate passed on exactly this tree and config\./);

    repo.write('src/sum.ts', SUM_BROKEN);
    expect((await client.callTool({ name: 'gate_receipt', arguments: {} })).structuredContent).toMatchObject({ state: 'stale' });
    const delivered: Array<string | undefined> = [];
    const red = await client.callTool({ name: 'gate_check', arguments: {} }, undefined, { onprogress: (update) => delivered.push(update.message) });
    // Each gate as it starts and ends (and a beat every 15 s, on a slow machine), before the response.
    expect([progressOnWire[0], progressOnWire.at(-1)]).toEqual(['running test', 'test: failed']);
    expect(progressOnWire.slice(1, -1).every((beat) => beat === 'running test')).toBe(true);
    expect(delivered[0]).toBe('running test');
    const report = textOf(red);
    expect(red.isError).toBeFalsy();
    expect(report).toMatch(/^gate: 1 of 1 checks failed \(test\)\.\n/);
    expect(report).toContain('$ npx vitest run --reporter=default --passWithNoTests src/sum.test.ts');
    expect(report).toContain('sum > adds two numbers');
    expect(report).toContain('expected -1 to be 3');
    expect(report).toMatch(/src\/sum\.test\.ts:6:\d+/);
    expect(report).toContain('full log: .git/gate/logs/test.log');
    expect(report).toMatch(/Do not skip, delete or weaken tests/);
    const structured = red.structuredContent as { gates: Array<{ durationMs: number }> };
    expect(red.structuredContent).toMatchObject({
      status: 'failed',
      ok: false,
      baseline: 'the last tree that passed',
      changedFiles: ['src/sum.ts'],
      gates: [
        {
          name: 'test',
          status: 'failed',
          outcome: 'failed (exit 1)',
          exitCode: 1,
          log: '.git/gate/logs/test.log',
          failures: [expect.objectContaining({ id: expect.stringContaining('sum > adds two numbers'), file: 'src/sum.test.ts', line: 6 })],
        },
      ],
    });
    expect(structured.gates[0]?.durationMs).toBeGreaterThan(0);

    // The same report a refused stop gives the agent: only the first line differs.
    const refused = stop(repo);
    expect(refused.code).toBe(2);
    expect(report.split('\n').slice(1)).toEqual(refused.stderr.split('\n').slice(1));
  });

  it('says what a stop would do, as gate status --json does', async () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    client = await connect(repo);
    const status = await client.callTool({ name: 'gate_status', arguments: {} });
    expect(status.structuredContent).toMatchObject({
      projectDir: repo.dir,
      baseline: 'HEAD',
      alreadyPassed: false,
      changedFiles: ['src/sum.ts'],
      gates: [
        { name: 'test', runs: true, reason: 'src/sum.ts changed' },
        { name: 'docs', runs: false },
      ],
    });
    expect(JSON.parse(textOf(status))).toEqual(status.structuredContent);
  });

  it('answers a project with no config with the fix, and a directory outside its own with a refusal, as tool errors', async () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    client = await connect(repo, ['--dir', repo.home]);
    const none = await client.callTool({ name: 'gate_check', arguments: {} });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/no gate\.config\.json or gate\.local\.json found.*gate init/);
    const outside = await client.callTool({ name: 'gate_check', arguments: { directory: repo.dir } });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toBe(`${repo.dir} is outside ${repo.home}, the directory this server was started for (gate mcp --dir DIR)`);
  });
});
