// npm run demo: gate on the real Claude Code CLI. gate is packed and installed into a throwaway
// TypeScript project, set up with `npx gate init --yes`, and Claude Code runs one turn there against a
// scripted stand-in for the model: the "agent" breaks a test, tries to stop, gets gate's report, fixes
// it, and stops. Everything printed about the model's side is read back from what the mock received.
// `npm run demo -- --keep` leaves the repository in place for a look around.
// The pieces are the ones the tests in tests/claude/ use (plain .mjs, so this script can import them).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUDE_CODE_VERSION, PROJECT_ROOT, runClaude } from '../tests/claude/claude-cli.mjs';
import { checkBuild, makeProject, prepareTemplate, SUM_BROKEN, SUM_OK, writeFileCommand } from '../tests/claude/gate-project.mjs';
import { lastUserText, startMockAnthropic } from '../tests/claude/mock-anthropic.mjs';

const keep = process.argv.includes('--keep');
const tty = process.stdout.isTTY === true;
const bold = (text) => (tty ? `\x1b[1m${text}\x1b[0m` : text);
const dim = (text) => (tty ? `\x1b[2m${text}\x1b[0m` : text);
const say = (text) => console.log(`\n${bold(text)}`);
const box = (text) => console.log(text.replace(/\n$/, '').replace(/^/gm, '  │ '));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

say(`0. Claude Code ${CLAUDE_CODE_VERSION} (installed once into .cache/ if missing)`);
const install = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'install-claude.mjs')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (install.status !== 0) process.exit(install.status ?? 1);
console.log(dim(install.stdout.trim()));
const stale = checkBuild();
if (stale) console.log(`warning: ${stale}`);

let template;
let project;
let mock;
try {
  say('1. gate, packed (npm pack) and installed into a small TypeScript project with vitest');
  template = prepareTemplate();
  console.log(`${template.tarball}: packed in ${seconds(template.packMs)}; npm install (vitest, typescript, the tarball) took ${seconds(template.installMs)}`);
  project = makeProject(template.dir, { viaNpx: true });
  console.log(`The repository: ${project.repo}`);
  console.log('  src/sum.ts       export function sum(a, b) { return a + b; }');
  console.log("  src/sum.test.ts  expect(sum(1, 2)).toBe(3)");

  say('2. npx gate init --yes');
  const init = project.gate('init', '--yes');
  if (init.code !== 0) throw new Error(`gate init failed (exit ${init.code}):\n${init.stdout}\n${init.stderr}`);
  const plan = init.stdout.split('\n').filter((line) => /^( {2}\S+ +preset |Hook command:|Hook timeout:|Wrote )/.test(line));
  box(`${plan.join('\n')}\n`);
  project.commit('Install gate');
  console.log('Committed gate.config.json and .claude/settings.json, as a team would.');

  say('3. Claude Code runs a turn; the model is a script: break the test, stop, fix it, stop');
  mock = await startMockAnthropic();
  const breakIt = writeFileCommand('src/sum.ts', SUM_BROKEN);
  const fixIt = writeFileCommand('src/sum.ts', SUM_OK);
  mock.script([
    { text: 'Refactoring sum.', toolUse: { name: 'Bash', input: { command: breakIt } } },
    { text: 'Done: sum is refactored.' },
    { text: 'The test caught a sign error; fixing it.', toolUse: { name: 'Bash', input: { command: fixIt } } },
    { text: 'Fixed: sum adds again and the test passes.' },
  ]);
  const prompt = 'Refactor sum in src/sum.ts.';
  console.log(`$ claude -p '${prompt}' --output-format json   ${dim(`(ANTHROPIC_BASE_URL=${mock.url}, a temp CLAUDE_CONFIG_DIR)`)}`);
  const run = await runClaude({ cwd: project.repo, prompt, mockUrl: mock.url, configDir: project.configDir, env: project.env });
  const main = mock.mainRequests();

  say("4. The agent's edit (a Bash tool call)");
  box(`${breakIt}\n`);

  say('5. The agent tries to end its turn; gate runs the tests and refuses. The model receives, verbatim:');
  // Claude Code frames a block as "Stop hook additional context: " (gate's form from 2.1.163) or "Stop hook feedback:" (exit 2).
  const isBlock = (request) => /Stop hook (additional context|feedback):/.test(lastUserText(request));
  const feedbackAt = main.findIndex(isBlock);
  if (feedbackAt === -1) throw new Error('the model never received the Stop hook\'s report: gate did not block');
  box(`${lastUserText(main[feedbackAt])}\n`);
  console.log(dim(`(the last user message of model request ${feedbackAt + 1} of ${main.length}, as the mock received it)`));

  say('6. The fix (the next Bash tool call)');
  box(`${fixIt}\n`);

  say('7. How the turn ended');
  const blocks = main.filter(isBlock).length;
  console.log(`claude exited ${run.exitCode} after ${seconds(run.durationMs)}: ${main.length} model requests, ${blocks} blocked stop${blocks === 1 ? '' : 's'}; the stop after the fix was allowed.`);
  console.log(`Its last answer: ${JSON.stringify(run.json?.result)}`);
  const status = project.git('status', '--porcelain');
  console.log(`git status: ${status.trim() === '' ? 'clean (src/sum.ts is as it was)' : `\n${status}`}`);
  if (run.exitCode !== 0 || blocks !== 1 || main.length !== 4) process.exitCode = 1;
} catch (error) {
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await mock?.close();
  if (template) rmSync(template.base, { recursive: true, force: true });
  if (project && keep) console.log(`\nKept: ${project.repo} (Claude Code's config in ${project.configDir})`);
  else project?.cleanup();
}
