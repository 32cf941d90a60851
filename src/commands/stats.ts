import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { renderStats } from '../stats/render-stats.js';
import { summariseStops } from '../stats/summarise-stops.js';
import { readStopRecords } from '../state/read-stop-log.js';
import { locateStateDir, noStopsYet } from './log.js';

/** `gate stats`: what the recorded stops add up to. */
export function statsCommand(args: string[]): number {
  let json: boolean;
  try {
    json = parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values.json;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate stats [--json]`);
  }
  const stateDir = locateStateDir(process.cwd());
  const stats = summariseStops(readStopRecords(stateDir));
  if (json) process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
  else process.stdout.write(`${stats.stops === 0 ? noStopsYet(stateDir) : renderStats(stats)}\n`);
  return 0;
}
