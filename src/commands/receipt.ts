import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { judgeCurrentReceipt } from '../receipt/judge-current.js';
import { RECEIPT_EXIT, receiptJson, renderReceiptMarkdown, renderReceiptText } from '../receipt/render-receipt.js';
import { openProject } from './open-project.js';

const USAGE = 'usage: gate receipt [--md | --json]';

/**
 * `gate receipt`: what the last full run of every gate says about exactly this work tree and config —
 * PASS (exit 0), FAIL (1), or STALE / NONE (2). docs/receipts-and-ci.md.
 */
export async function receiptCommand(args: string[]): Promise<number> {
  const values = parseReceiptArgs(args);
  const { judged, now } = await judgeCurrentReceipt(openProject(process.cwd()), process.cwd());
  if (values.json) process.stdout.write(`${JSON.stringify(receiptJson(judged, now), null, 2)}\n`);
  else process.stdout.write(values.md ? renderReceiptMarkdown(judged) : renderReceiptText(judged));
  return RECEIPT_EXIT[judged.state];
}

function parseReceiptArgs(args: string[]): { md: boolean; json: boolean } {
  let values: { md: boolean; json: boolean };
  try {
    values = parseArgs({ args, options: { md: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`);
  }
  if (values.md && values.json) throw new UsageError(`--md and --json are one or the other; ${USAGE}`);
  return values;
}
