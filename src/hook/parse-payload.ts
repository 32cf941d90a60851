/** What gate needs from a harness payload, normalised; every field may be absent or malformed. */
export interface HookPayload {
  /** The payload was a JSON object naming its event; anything else is never acted on. */
  valid: boolean;
  event: string;
  sessionId: string | undefined;
  cwd: string | undefined;
  stopHookActive: boolean;
  runningBackgroundTasks: number;
  agentType: string | undefined;
}

export function parsePayload(text: string): HookPayload {
  const data = parseObject(text);
  const event = stringField(data, 'hook_event_name');
  return {
    valid: event !== undefined,
    event: event ?? '',
    sessionId: stringField(data, 'session_id'),
    cwd: stringField(data, 'cwd'),
    stopHookActive: data['stop_hook_active'] === true,
    runningBackgroundTasks: countRunning(data['background_tasks']),
    agentType: stringField(data, 'agent_type'),
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

// Claude Code lists background subagents here; the main Stop fires while they still run and
// again when they finish. Entries without a status are taken as running.
function countRunning(tasks: unknown): number {
  if (!Array.isArray(tasks)) return 0;
  return tasks.filter((task) => {
    if (!isRecord(task)) return true;
    const status = task['status'];
    return typeof status !== 'string' || /^(running|pending|in_progress|active|started)$/i.test(status);
  }).length;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
