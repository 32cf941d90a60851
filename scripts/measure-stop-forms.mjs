#!/usr/bin/env node
// Measures every way a Stop hook can refuse a stop on the real Claude Code CLI, offline against the
// mock model (issue 29): what the model reads, what the human sees (stream-json), the "missing
// script" word guess, the consecutive-block cap and a report past 50,000 characters.
//   node scripts/measure-stop-forms.mjs [--claude 2.1.332] [--out file.json] [--only form,…] [--cases once,…] [--env K=V …] [--sizes 4000,…]
// The CLI must be installed first (GATE_CLI_VERSIONS=… node scripts/install-claude.mjs). Not a test:
// it prints a summary and writes the raw observations (docs/stop-contract.md keeps the table).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { claude: { type: 'string' }, out: { type: 'string' }, only: { type: 'string' }, cases: { type: 'string' }, env: { type: 'string', multiple: true }, sizes: { type: 'string' } } });
const extraEnv = Object.fromEntries((values.env ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'stop-forms-')));
if (values.claude) {
  const versions = join(scratch, 'versions.json');
  writeFileSync(versions, JSON.stringify({ claude: values.claude }));
  process.env.GATE_CLI_VERSIONS = versions;
}
const { CLAUDE_CODE_VERSION, runClaude } = await import('../tests/claude/claude-cli.mjs');
const { allMessageText, lastUserText, startMockAnthropic } = await import('../tests/claude/mock-anthropic.mjs');

const MARK = 'REPORT-MARK';
// The hook: blocks `blocks` times in the form asked, then allows; keeps each payload it was given.
const HOOK = `
const fs = require('node:fs'), path = require('node:path');
const dir = path.dirname(process.argv[1]);
const conf = JSON.parse(fs.readFileSync(path.join(dir, 'conf.json'), 'utf8'));
const n = fs.readdirSync(dir).filter((f) => f.startsWith('payload-')).length;
let input = ''; process.stdin.on('data', (c) => (input += c)).on('end', () => {
  fs.writeFileSync(path.join(dir, 'payload-' + n + '.json'), input);
  if (n === 0) fs.writeFileSync(path.join(dir, 'env.json'), JSON.stringify({ AI_AGENT: process.env.AI_AGENT }));
  if (n >= conf.blocks) process.exit(0);
  const report = conf.report.replace('#N', String(n + 1));
  const out = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
  switch (conf.form) {
    case 'exit2': process.stderr.write(report); process.exit(2);
    case 'exit2+systemMessage': out({ systemMessage: 'HUMAN-NOTE ' + (n + 1) }); process.stderr.write(report); process.exit(2);
    case 'decision': out({ decision: 'block', reason: report }); process.exit(0);
    case 'decision+systemMessage': out({ decision: 'block', reason: report, systemMessage: 'HUMAN-NOTE ' + (n + 1) }); process.exit(0);
    case 'additionalContext': out({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: report } }); process.exit(0);
    case 'additionalContext+systemMessage': out({ systemMessage: 'HUMAN-NOTE ' + (n + 1), hookSpecificOutput: { hookEventName: 'Stop', additionalContext: report } }); process.exit(0);
    case 'additionalContext exit2': out({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: report } }); process.exit(2);
  }
});
`;

const FORMS = ['exit2', 'exit2+systemMessage', 'decision', 'decision+systemMessage', 'additionalContext', 'additionalContext+systemMessage', 'additionalContext exit2'];
const plain = `${MARK} #N: test failed\n$ npx vitest run\n FAIL src/sum.test.ts\n`;
const trap = `${MARK} #N: test failed\nError: ENOENT: no such file or directory, open 'fixtures/x.json'\nsh: 1: can't open data.txt\n`;
// About `chars` characters: numbered filler lines of 51 characters each, then LONG-END.
const long = (chars) => `${MARK} #N: long\n${Array.from({ length: Math.floor(chars / 51) }, (_, i) => `line ${String(i).padStart(5, '0')} ${'x'.repeat(40)}`).join('\n')}\nLONG-END\n`;
const CASES = [
  { name: 'once', report: plain, blocks: 1 },
  { name: 'words', report: trap, blocks: 1 },
  { name: 'cap', report: plain, blocks: 99 },
  { name: 'cap=3', report: plain, blocks: 99, env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' } },
  { name: 'spill', report: long(61_000), blocks: 1 },
  { name: 'spill-9.9k', report: long(9_900), blocks: 1 },
  { name: 'spill-10.1k', report: long(10_100), blocks: 1 },
  { name: 'spill-49k', report: long(49_000), blocks: 1 },
  { name: 'spill-51k', report: long(51_000), blocks: 1 },
  // whole as text, but past 10,000 characters once JSON escapes its quotes: which length counts?
  { name: 'spill-quotes', report: long(9_400).replaceAll('x', '"'), blocks: 1 },
  // 9,950 characters on one line: do line breaks count towards additionalContext's spill?
  { name: 'spill-flat', report: `${MARK} #N: ${'y'.repeat(9_930)}\nLONG-END\n`, blocks: 1 },
  // 4,000 characters of 3 UTF-8 bytes each: characters or bytes?
  { name: 'spill-cjk', report: `${MARK} #N: ${'あ'.repeat(4_000)}\nLONG-END\n`, blocks: 1 },
  // the same bytes on every block, as gate sends for the same failures
  { name: 'same', report: plain.replace('#N', '1'), blocks: 3 },
];

function sandbox(form, testCase) {
  const root = mkdtempSync(join(scratch, 'case-'));
  const repo = join(root, 'repo');
  const hookDir = join(root, 'hook');
  const configDir = join(root, 'config');
  for (const dir of [join(repo, '.claude'), hookDir, configDir]) mkdirSync(dir, { recursive: true });
  const gitconfig = join(root, 'gitconfig');
  writeFileSync(gitconfig, '[user]\n\tname = Test\n\temail = test@example.invalid\n');
  const gitEnv = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: gitconfig };
  execFileSync('git', ['init', '-q', repo], { env: { PATH: process.env.PATH ?? '', HOME: root, ...gitEnv } });
  writeFileSync(join(hookDir, 'hook.cjs'), HOOK);
  chmodSync(join(hookDir, 'hook.cjs'), 0o755);
  writeFileSync(join(hookDir, 'conf.json'), JSON.stringify({ form, report: testCase.report, blocks: testCase.blocks }));
  const command = `node ${join(hookDir, 'hook.cjs')}`;
  const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } };
  writeFileSync(join(repo, '.claude', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return { root, repo, hookDir, configDir, env: { ...gitEnv, ...extraEnv, ...testCase.env }, command };
}

const count = (text, part) => text.split(part).length - 1;
const clip = (text, max = 700) => (text.length <= max ? text : `${text.slice(0, max)}…[${text.length} chars]`);

// A long report with its numbered filler lines collapsed, so that a cut or a preview shows.
function shapeOf(text) {
  return text.replace(/line (\d{5}) x{40}(?:\nline (\d{5}) x{40})*/g, (run, first) => `[lines ${first}..${/(\d{5}) x{40}$/.exec(run)?.[1]}]`);
}

async function measure(form, testCase) {
  const box = sandbox(form, testCase);
  const mock = await startMockAnthropic();
  mock.script([{ text: 'Done 1.' }, ...Array.from({ length: 20 }, (_, i) => ({ text: `Again ${i + 2}.` }))]);
  try {
    const run = await runClaude({ cwd: box.repo, prompt: 'say done', mockUrl: mock.url, configDir: box.configDir, env: box.env, outputFormat: 'stream-json', timeoutMs: 120_000 });
    const main = mock.mainRequests();
    const last = main.at(-1);
    const everything = allMessageText(last);
    const payloads = readdirSync(box.hookDir).filter((f) => f.startsWith('payload-')).sort().map((f) => JSON.parse(readFileSync(join(box.hookDir, f), 'utf8')));
    const human = run.events.filter((event) => event && typeof event === 'object' && !['assistant', 'user', 'result', 'stream_event'].includes(event.type) && !(event.type === 'system' && event.subtype === 'init'));
    return {
      form,
      case: testCase.name,
      exitCode: run.exitCode,
      result: run.json?.result,
      hookRuns: payloads.length,
      payloadKeys: Object.keys(payloads[0] ?? {}),
      // Claude Code's own version, as a hook sees it (the rest of the hook's environment is left out)
      aiAgent: JSON.parse(readFileSync(join(box.hookDir, 'env.json'), 'utf8')).AI_AGENT,
      stopHookActive: payloads.map((p) => p.stop_hook_active),
      mainRequests: main.length,
      // what the model read after each stop: the last user message of each later request
      sent: main.slice(1, 4).map((request) => clip(lastUserText(request), testCase.name.startsWith('spill') ? 300 : 700)),
      sentLengths: main.slice(1).map((request) => lastUserText(request).length),
      // how often the first report is in the whole conversation the model read last
      firstReportCopies: count(everything, `${MARK} 1:`),
      spillEndReached: testCase.name.startsWith('spill') ? everything.includes('LONG-END') : undefined,
      spillShape: testCase.name.startsWith('spill') ? main.slice(1).map((request) => clip(shapeOf(lastUserText(request)), 1500)) : undefined,
      human: human.map((event) => clip(JSON.stringify({ ...event, uuid: undefined, session_id: undefined }), 400)),
      humanKinds: human.map((event) => event.key ?? event.subtype ?? event.type),
      stderr: clip(run.stderr, 400),
      // where each copy of the first report sits in the last request: [message index, role, block type, length]
      copiesAt: (last?.body?.messages ?? []).flatMap((message, index) => (Array.isArray(message.content) ? message.content : [{ type: 'string', text: message.content }])
        .filter((block) => JSON.stringify(block).includes(`${MARK} 1:`))
        .map((block) => [index, message.role, block.type, JSON.stringify(block).length, clip(JSON.stringify(block).slice(0, 300), 300)])),
    };
  } finally {
    await mock.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

// --sizes 4000,6000: extra one-block cases with a report of about that many characters
for (const size of values.sizes ? values.sizes.split(',').map(Number) : []) CASES.push({ name: `spill-${size}`, report: long(size), blocks: 1 });
const forms = values.only ? values.only.split(',') : FORMS;
const observations = [];
for (const form of forms) {
  for (const testCase of CASES.filter((c) => !values.cases || values.cases.split(',').includes(c.name))) {
    const row = await measure(form, testCase);
    observations.push(row);
    process.stdout.write(`${form.padEnd(32)} ${testCase.name.padEnd(6)} requests ${row.mainRequests} hook runs ${row.hookRuns} copies ${row.firstReportCopies} human [${row.humanKinds.join(', ')}]\n`);
  }
}
const out = values.out ?? join(scratch, `stop-forms-${CLAUDE_CODE_VERSION}.json`);
writeFileSync(out, `${JSON.stringify({ claude: CLAUDE_CODE_VERSION, observations }, null, 2)}\n`);
process.stdout.write(`raw observations: ${out}\n`);
if (!values.out) process.stdout.write('(in a temp dir: pass --out to keep them)\n');
