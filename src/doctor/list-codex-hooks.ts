import { spawn } from 'node:child_process';

/** One entry of Codex's `hooks/list` answer (app-server protocol, 0.171.0). */
export interface ListedCodexHook {
  key: string;
  eventName: string;
  command: string | null;
  sourcePath: string;
  /** The hash approving it records in config.toml (`[hooks.state."<key>"] trusted_hash`). */
  currentHash: string;
  /** `trusted`, `managed`, `untrusted` (never approved) or `modified` (changed since approved). */
  trustStatus: string;
}

export type CodexListing = { hooks: ListedCodexHook[]; warnings: string[] } | { error: string };

/**
 * Asks Codex itself which hooks it would run in `cwd` and whether each is approved: `codex
 * app-server` over JSON lines (initialize, initialized, hooks/list). Codex records an approval as a
 * hash of the hook's definition in its config.toml; only Codex knows that hash, so doctor asks it.
 */
export function listCodexHooks(codex: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<CodexListing> {
  return new Promise((resolve) => {
    const child = spawn(codex, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buffered = '';
    let settled = false;
    const finish = (result: CodexListing): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ error: `codex app-server gave no hook list within ${timeoutMs / 1000} s` }), timeoutMs);
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    };
    child.on('error', (error) => finish({ error: `codex app-server could not start: ${error.message}` }));
    child.on('close', (code) => finish({ error: `codex app-server exited (${code ?? 'signal'}) before listing its hooks` }));
    child.stdin.on('error', () => undefined);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const message = parseLine(line);
        if (message?.['id'] === 1) {
          send({ method: 'initialized', params: {} });
          send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (message?.['id'] === 2) {
          finish(readListing(message));
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'gate-doctor', version: '1' } } });
  });
}

function readListing(message: Record<string, unknown>): CodexListing {
  const result = message['result'];
  if (!isRecord(result) || !Array.isArray(result['data'])) return { error: `codex app-server answered hooks/list with ${JSON.stringify(message['error'] ?? message).slice(0, 200)}` };
  const hooks: ListedCodexHook[] = [];
  const warnings: string[] = [];
  for (const entry of result['data']) {
    if (!isRecord(entry)) continue;
    for (const list of [entry['warnings'], entry['errors']]) if (Array.isArray(list)) warnings.push(...list.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))));
    if (!Array.isArray(entry['hooks'])) continue;
    for (const hook of entry['hooks']) {
      if (!isRecord(hook) || typeof hook['key'] !== 'string' || typeof hook['sourcePath'] !== 'string') continue;
      hooks.push({
        key: hook['key'],
        eventName: String(hook['eventName'] ?? ''),
        command: typeof hook['command'] === 'string' ? hook['command'] : null,
        sourcePath: hook['sourcePath'],
        currentHash: String(hook['currentHash'] ?? ''),
        trustStatus: String(hook['trustStatus'] ?? ''),
      });
    }
  }
  return { hooks, warnings };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
