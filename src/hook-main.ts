import { runHook } from './commands/run.js';

/** Entry of the CommonJS hot-path bundle (dist/hook.cjs) that bin/gate.cjs loads for `gate run`. */
export async function main(args: string[]): Promise<void> {
  process.exitCode = await runHook(args, process.env);
}
