import { formatMs, formatTime, percent, shortSession } from '../report/format-units.js';
import type { DurationSummary, StopStats } from './summarise-stops.js';

const TOP = 5;

/** `gate stats` for a person: one fact per line. */
export function renderStats(stats: StopStats): string {
  const { outcomes } = stats;
  const lines = [
    `stops:         ${stats.stops} in ${stats.sessions} ${stats.sessions === 1 ? 'session' : 'sessions'}, ${formatTime(stats.from ?? '')} to ${formatTime(stats.to ?? '')}`,
    `fast path:     ${stats.fastPath.stops} of ${stats.stops} (${percent(stats.fastPath.share)}) decided without running a gate`,
    `duration:      ${describeDurations(stats.durations.all)}`,
    `  fast path:   ${describeDurations(stats.durations.fast)}`,
    `  checked:     ${describeDurations(stats.durations.checked)}`,
    `outcomes:      ${outcomes.allow} allowed, ${outcomes.block} blocked, ${outcomes.escape} let through after too many blocks, ${outcomes.error} allowed unchecked after an error`,
    `reasons:       ${stats.reasons.map((entry) => `${entry.reason} ${entry.stops}`).join(', ')}`,
    `failing gates: ${top(stats.failingGates.map((gate) => `${gate.name} failed ${gate.failures} of ${gate.runs} runs`))}`,
    `flaky tests:   ${top(stats.flakyTests.map((flaky) => `${flaky.test} (${flaky.gate}) ${flaky.times}×`))}`,
    `pre-existing:  ${top(stats.preExisting.map((entry) => `${entry.gate} at ${entry.stops} ${entry.stops === 1 ? 'stop' : 'stops'} (latest ${entry.latest})`))}`,
    `feedback:      ${top(stats.feedback.map((sent) => `${shortSession(sent.session)} ${sent.chars} chars in ${sent.blocks} ${sent.blocks === 1 ? 'block' : 'blocks'}${sent.repeats > 0 ? ` (${sent.repeats} ${sent.repeats === 1 ? 'a reminder' : 'reminders'} of a report it had)` : ''}`))}`,
  ];
  return lines.join('\n');
}

function describeDurations(summary: DurationSummary | null): string {
  return summary ? `median ${formatMs(summary.medianMs)}, p95 ${formatMs(summary.p95Ms)}` : 'none';
}

function top(items: string[]): string {
  if (items.length === 0) return 'none';
  const more = items.length - TOP;
  return `${items.slice(0, TOP).join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}
