import { runHook } from './commands/run.js';
import { allowUnchecked } from './hook-on-windows.js';
import { isPosix } from './platform.js';

/** Entry of the CommonJS hot-path bundle (dist/hook.cjs) that bin/gate.cjs loads for `gate run`. */
export async function main(args: string[]): Promise<void> {
  process.exitCode = isPosix(process.platform) ? await runHook(args, process.env) : allowUnchecked(args, process.env);
}
