import type { Preset } from '../config/schema.js';

/** docs/presets.md, generated from the preset files so that it can't drift from them. */
export function renderPresetsDoc(presets: Preset[]): string {
  const lines = [
    '# Presets',
    '',
    '<!-- Generated from presets/*.json by `npm run docs:presets`; a test fails when it is stale. -->',
    '',
    '`gate init` picks presets from what the repository shows; a gate names one with `"preset"`.',
    'A preset supplies the command, the trigger globs (`on`), what never triggers (`ignore`), the filter',
    'and the timeout; any of them can be overridden in the gate. At most one test runner per',
    'ecosystem is chosen (the fast tier: unit tests — Playwright and Cypress are never chosen).',
    '',
    '| preset | kind | runs | filter | timeout | detected when |',
    '|---|---|---|---|---|---|',
  ];
  for (const preset of presets) {
    const detect = preset.detect.map((rule) => describeRule(rule)).join('; ');
    const related = preset.related ? `; only the related tests: \`${preset.related.run.join(' ')}\`` : '';
    lines.push(`| \`${preset.id}\` | ${preset.kind} | \`${preset.run.join(' ')}\`${related} | ${preset.filter} | ${preset.timeout} s | ${detect} |`);
  }
  lines.push('', '## Triggers', '');
  for (const preset of presets) {
    lines.push(`- \`${preset.id}\`: ${preset.on.map((glob) => `\`${glob}\``).join(', ')}${preset.ignore?.length ? `; never ${preset.ignore.map((glob) => `\`${glob}\``).join(', ')}` : ''}`);
  }
  lines.push('', '## Related tests', '');
  lines.push('Where the runner can select the tests related to the changed files, a stop runs only those:');
  lines.push('when every changed file that triggered the gate still exists and none matches the list below');
  lines.push('(configs, setup files, lockfiles), the `related` command runs with `{files}`; otherwise the full');
  lines.push('command. `gate check --all` always runs the full command. A gate opts out with `"related": false`.', '');
  for (const preset of presets.filter((entry) => entry.related)) {
    lines.push(`- \`${preset.id}\`: full run when ${preset.related?.fullRunOn.map((glob) => `\`${glob}\``).join(', ')} changed`);
  }
  return `${lines.join('\n')}\n`;
}

function describeRule(rule: Preset['detect'][number]): string {
  const text = rule.reason.replace('{field}', 'dependencies').replace('{file}', `\`${rule.file ?? ''}\``).replace('{section}', rule.section ?? '');
  return rule.alone === false ? `${text} (only together with another rule)` : text;
}
