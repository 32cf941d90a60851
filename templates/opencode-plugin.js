// gate (npm: stopgate) for OpenCode. OpenCode cannot refuse the end of a turn, so when a session
// goes idle this plugin runs `gate run --harness opencode`, and when gate refuses the stop it sends
// gate's report to the session as the next user message.
// Written by `gate init --harness opencode`; `gate uninstall --harness opencode` removes it. Configure
// gate in gate.config.json, not here: an edited copy is no longer recognised as gate's own.
import { spawn } from 'node:child_process';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How gate is run; a relative program is under the project directory. */
const GATE = __GATE_COMMAND__;
/** At most this many reports in a row without a message from the user (gate keeps the same bound). */
const MAX_BLOCKS = __MAX_BLOCKS__;
/** How long gate may take at a stop (the gates' timeouts and a margin) and at a new message. */
const STOP_TIMEOUT_MS = __STOP_TIMEOUT_MS__;
const START_TIMEOUT_MS = __START_TIMEOUT_MS__;

/** The project directory: this file is <project>/.opencode/plugin/<name>.js. */
const PROJECT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export const GatePlugin = async ({ client }) => {
  /** Per session: reports sent in a row, the last one, who is talking, and what to skip. */
  const sessions = new Map();
  const stateOf = (id) => {
    if (!sessions.has(id)) sessions.set(id, { blocks: 0, report: undefined, agent: undefined, model: undefined, subagent: false, aborted: false, busy: false });
    return sessions.get(id);
  };
  const log = (level, message) => client.app.log({ body: { service: 'gate', level, message } }).catch(() => undefined);
  const tell = async (message) => {
    await log('warn', message);
    await client.tui.showToast({ body: { title: 'gate', message, variant: 'warning', duration: 10_000 } }).catch(() => undefined);
  };

  async function onIdle(id, state) {
    const verdict = await runGate({ hook_event_name: 'session.idle', session_id: id, cwd: PROJECT }, STOP_TIMEOUT_MS);
    if (verdict.notice !== undefined) await tell(verdict.notice);
    if (verdict.report === undefined) {
      state.blocks = 0;
      await log('info', 'gate: stop allowed');
      return;
    }
    if (state.blocks >= MAX_BLOCKS) {
      state.blocks = 0;
      await tell(`gate: let the turn end after ${MAX_BLOCKS} reports in a row; the checks still fail.`);
      return;
    }
    state.blocks += 1;
    state.report = verdict.report;
    const body = { parts: [{ type: 'text', text: verdict.report }], ...(state.agent ? { agent: state.agent } : {}), ...(state.model ? { model: state.model } : {}) };
    const sent = await client.session.promptAsync({ path: { id }, body }).catch((error) => ({ error }));
    if (sent?.error) await tell(`gate: could not send the report to the session: ${describe(sent.error)}`);
    else await log('info', `gate: stop refused, report sent (${state.blocks} of ${MAX_BLOCKS})`);
  }

  return {
    // A new user message starts a turn: gate records the tree it starts from. Awaited by OpenCode
    // before the model sees the message.
    'chat.message': async (input, output) => {
      const state = stateOf(input.sessionID);
      const prompt = textOf(output?.parts);
      if (state.report !== undefined && prompt === state.report.trim()) return; // our own report, back as a message
      Object.assign(state, { blocks: 0, report: undefined, agent: input.agent, model: input.model });
      const verdict = await runGate({ hook_event_name: 'chat.message', session_id: input.sessionID, cwd: PROJECT, prompt }, START_TIMEOUT_MS);
      if (verdict.notice !== undefined) await tell(verdict.notice);
    },
    event: async ({ event }) => {
      const props = event.properties ?? {};
      if (event.type === 'session.created' || event.type === 'session.updated') {
        if (props.info?.id && props.info.parentID) stateOf(props.info.id).subagent = true;
      } else if (event.type === 'session.error') {
        if (props.sessionID && props.error?.name === 'MessageAbortedError') stateOf(props.sessionID).aborted = true;
      } else if (event.type === 'session.idle' && props.sessionID) {
        const state = stateOf(props.sessionID);
        // Subagents' sessions are not gated; a turn the user interrupted is not resumed.
        if (state.subagent || state.busy) return;
        if (state.aborted) {
          state.aborted = false;
          return;
        }
        state.busy = true;
        // Not awaited: the checks may take minutes, and OpenCode's other plugins wait for this hook.
        onIdle(props.sessionID, state)
          .catch((error) => tell(`gate failed: ${describe(error)}`))
          .finally(() => {
            state.busy = false;
          });
      }
    },
  };
};

function textOf(parts) {
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((part) => part?.type === 'text' && typeof part.text === 'string' && !part.synthetic)
    .map((part) => part.text)
    .join('\n')
    .trim();
}

function describe(error) {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
}

/** Runs gate with the payload on stdin; resolves to its verdict, never rejects. */
function runGate(payload, timeoutMs) {
  return new Promise((resolve) => {
    const [program, ...args] = GATE;
    const file = program.includes('/') && !isAbsolute(program) ? join(PROJECT, program) : program;
    let settled = false;
    const settle = (verdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(verdict);
    };
    let child;
    try {
      child = spawn(file, args, { cwd: PROJECT, env: { ...process.env, OPENCODE_PROJECT_DIR: PROJECT }, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ notice: `gate could not start (${file}): ${describe(error)}` });
      return;
    }
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      settle({ notice: `gate did not answer within ${Math.round(timeoutMs / 1000)} s; the stop was let through.` });
    }, timeoutMs);
    child.on('error', (error) => settle({ notice: `gate could not start (${file}): ${describe(error)}` }));
    child.on('close', (code, signal) => settle(readVerdict(stdout, stderr, code, signal)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(payload));
  });
}

/** gate prints nothing (allow), `{"systemMessage"}` (allow, tell the human) or `{"decision":"block","reason"}`. */
function readVerdict(stdout, stderr, code, signal) {
  const text = stdout.trim();
  if (code !== 0 || signal !== null) {
    return { notice: `gate ended with ${signal ?? `exit ${code}`}; the stop was let through. ${stderr.trim().slice(-500)}`.trim() };
  }
  if (text === '') return {};
  try {
    const value = JSON.parse(text);
    if (value?.decision === 'block' && typeof value.reason === 'string' && value.reason.trim() !== '') return { report: value.reason };
    if (typeof value?.systemMessage === 'string') return { notice: value.systemMessage };
  } catch {
    // fall through: not gate's JSON
  }
  return { notice: `gate printed something it never prints; the stop was let through: ${text.slice(0, 200)}` };
}
