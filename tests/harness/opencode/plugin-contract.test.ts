// gate's generated OpenCode plugin, loaded in Node with a fake OpenCode `client`: the events and hook
// calls OpenCode makes (their shapes as measured on 1.18.33) go in; what the plugin sends to the
// session and shows the human comes out. The plugin runs the real gate from the packed tarball.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { renderPlugin } from '../../../src/harness/install/opencode.js';
import { makeProject, SUM_BROKEN, SUM_OK, type GateProject } from '../../claude/gate-project.mjs';

type Hook = (input: Record<string, unknown>, output?: Record<string, unknown>) => Promise<void>;
interface Hooks {
  'chat.message': Hook;
  event: (input: { event: { type: string; properties: Record<string, unknown> } }) => Promise<void>;
}
interface Sent {
  id: string;
  text: string;
  agent: unknown;
  model: unknown;
}

/** A stand-in for the SDK client OpenCode hands a plugin: records what the plugin does with it. */
function fakeClient() {
  const logs: Array<{ level: string; message: string }> = [];
  const toasts: string[] = [];
  const sent: Sent[] = [];
  const client = {
    app: { log: async ({ body }: { body: { level: string; message: string } }) => void logs.push(body) },
    tui: { showToast: async ({ body }: { body: { message: string } }) => void toasts.push(body.message) },
    session: {
      promptAsync: async ({ path, body }: { path: { id: string }; body: { parts: Array<{ text: string }>; agent?: unknown; model?: unknown } }) => {
        sent.push({ id: path.id, text: body.parts.map((part) => part.text).join(''), agent: body.agent, model: body.model });
        return { data: undefined, response: { status: 204 } };
      },
    },
  };
  return { client, logs, toasts, sent };
}

type Fake = ReturnType<typeof fakeClient>;

/** Loads the plugin at `file` as OpenCode would, with a fake client and a `$` it must not need. */
async function load(file: string, fake: Fake): Promise<Hooks> {
  const module = (await import(`${pathToFileURL(file).href}?${Math.random()}`)) as { GatePlugin: (input: object) => Promise<Hooks> };
  const $ = () => {
    throw new Error('the plugin must not use Bun shell');
  };
  return module.GatePlugin({ client: fake.client, project: {}, directory: '/somewhere/else', worktree: '/somewhere/else', $ });
}

async function until(done: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SESSION = 'ses_dd505b121ffeT9G6P4wwn83pf9';
const userMessage = (text: string, sessionID = SESSION) =>
  [{ sessionID, agent: 'build', model: { providerID: 'mock', modelID: 'mock-model' }, messageID: 'msg_1' }, { message: { role: 'user' }, parts: [{ type: 'text', text }] }] as const;
const idle = (sessionID = SESSION) => ({ event: { type: 'session.idle', properties: { sessionID } } });
/** Counts the plugin's decisions: each stop ends in one log line. */
const decisions = (fake: Fake) => fake.logs.filter((entry) => /^gate: stop (allowed|refused)/.test(entry.message)).length + fake.toasts.filter((toast) => /reports in a row|could not start/.test(toast)).length;

async function stopAndWait(hooks: Hooks, fake: Fake, sessionID = SESSION): Promise<void> {
  const before = decisions(fake);
  await hooks.event(idle(sessionID));
  await until(() => decisions(fake) > before, 'the plugin to decide the stop');
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A copy of the run's template (packed and installed once, tests/claude/global-setup.ts), gate installed for OpenCode. */
function installed(): GateProject {
  const project = makeProject(inject('gateTemplate').dir);
  cleanups.push(() => project.cleanup());
  const init = project.gate('init', '--harness', 'opencode', '--no-check', '--yes');
  expect(init.code, `gate init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
  project.commit('install gate');
  return project;
}

describe("gate's OpenCode plugin, driven the way OpenCode drives it", () => {
  it('records the turn start, sends the report of a red stop as the next message (same agent and model), and lets the fixed stop end', async () => {
    const project = installed();
    const fake = fakeClient();
    const hooks = await load(join(project.repo, '.opencode', 'plugin', 'gate.js'), fake);
    await hooks['chat.message'](...userMessage('Refactor sum.'));
    expect(project.exists(`.git/gate/sessions/${SESSION}.json`)).toBe(true);

    project.write('src/sum.ts', SUM_BROKEN);
    await stopAndWait(hooks, fake);
    expect(fake.sent).toHaveLength(1);
    const [first] = fake.sent;
    expect(first).toMatchObject({ id: SESSION, agent: 'build', model: { providerID: 'mock', modelID: 'mock-model' } });
    expect(first?.text).toMatch(/^gate: 1 of 2 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(first?.text).toContain('expected -1 to be 3');

    // OpenCode hands the report back through chat.message: not a new turn.
    await hooks['chat.message'](...userMessage(first?.text ?? ''));
    project.write('src/sum.ts', SUM_OK);
    await stopAndWait(hooks, fake);
    expect(fake.sent).toHaveLength(1);
    expect(fake.logs.map((entry) => entry.message)).toEqual(['gate: stop refused, report sent (1 of 3)', 'gate: stop allowed']);
    expect(fake.toasts).toEqual([]);
  });

  it("leaves subagents' sessions and turns the user interrupted alone", async () => {
    const project = installed();
    const fake = fakeClient();
    const hooks = await load(join(project.repo, '.opencode', 'plugin', 'gate.js'), fake);
    await hooks['chat.message'](...userMessage('Refactor sum.'));
    project.write('src/sum.ts', SUM_BROKEN);

    const child = 'ses_child';
    await hooks.event({ event: { type: 'session.created', properties: { sessionID: child, info: { id: child, parentID: SESSION } } } });
    await hooks.event(idle(child));
    await hooks.event({ event: { type: 'session.error', properties: { sessionID: SESSION, error: { name: 'MessageAbortedError', data: { message: 'aborted' } } } } });
    await hooks.event(idle(SESSION));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fake.sent).toEqual([]);
    expect(fake.logs).toEqual([]);
    expect(project.exists('.git/gate/logs/test.log')).toBe(false);

    // The next stop of that session is gated again.
    await stopAndWait(hooks, fake);
    expect(fake.sent).toHaveLength(1);
  });

  it('keeps its own bound when gate keeps refusing, and only warns when gate cannot start', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'stopgate-opencode-plugin-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const alwaysBlock = join(dir, 'always-block.sh');
    writeFileSync(alwaysBlock, `#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{"decision":"block","reason":"gate: 1 of 1 checks failed (x); stop refused, block 1 of 3.\\n"}'\n`);
    chmodSync(alwaysBlock, 0o755);
    const plugin = (name: string, command: string) => {
      mkdirSync(join(dir, name, '.opencode', 'plugin'), { recursive: true });
      const file = join(dir, name, '.opencode', 'plugin', 'gate.js');
      writeFileSync(file, renderPlugin({ command, stopTimeoutSeconds: 60, turnStartTimeoutSeconds: 30, maxBlocks: 2 }));
      return file;
    };

    const stubborn = fakeClient();
    const hooks = await load(plugin('stubborn', `${alwaysBlock} run --harness opencode`), stubborn);
    for (let k = 0; k < 3; k++) await stopAndWait(hooks, stubborn);
    expect(stubborn.sent).toHaveLength(2);
    expect(stubborn.toasts).toEqual(['gate: let the turn end after 2 reports in a row; the checks still fail.']);

    const missing = fakeClient();
    const broken = await load(plugin('missing', 'node_modules/.bin/gate run --harness opencode'), missing);
    await broken['chat.message'](...userMessage('Hello.'));
    await stopAndWait(broken, missing);
    expect(missing.sent).toEqual([]);
    expect(missing.toasts).toEqual([expect.stringMatching(/^gate could not start \(.*node_modules\/\.bin\/gate\): .*ENOENT/), expect.stringMatching(/^gate could not start/)]);
  });
});
