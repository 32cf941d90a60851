import { ADAPTERS, isHarnessName } from './harness/adapters.js';
import { hookOutput } from './hook/hook-output.js';
import { optionValue } from './hook/option-value.js';
import { parsePayload } from './hook/parse-payload.js';
import { readPayload } from './hook/read-payload.js';
import { messages } from './messages.js';

/**
 * `gate run` where gates can't run (src/platform.ts): every event is allowed, in the harness's own
 * protocol, and a stop tells the human once that nothing was checked. Nothing is written.
 */
export function allowUnchecked(args: string[], env: NodeJS.ProcessEnv): number {
  const harness = optionValue(args, '--harness') ?? 'claude';
  const adapter = isHarnessName(harness) ? ADAPTERS[harness] : ADAPTERS.claude;
  const output = hookOutput(adapter.protocol, process.stdout, process.stderr, adapter.blockStdout);
  if (env['GATE'] === '0') return output.allow();
  let text = '';
  try {
    // Read to EOF all the same: a harness still writing the payload must not meet a closed pipe.
    text = readPayload().text;
  } catch {
    // An unreadable stdin changes nothing here: the stop is allowed either way.
  }
  const payload = parsePayload(text, adapter, optionValue(args, '--event'));
  return payload.event === 'stop' ? output.notice(messages.unsupportedPlatform()) : output.allow();
}
