// Real transcripts for tests/fixtures/transcripts/: each agent CLI, run against its mock model with gate
// installed, breaks src/sum.ts with its own edit tool, is blocked, fixes it, runs the tests, and
// stops; then a docs-only turn with no check; a question; a change gate checks and passes; and one
// that gate refuses and the agent leaves red. The CLI's transcript files and
// gate's stop log are copied out with the temp root replaced by /tmp/gate-fixture.
// npx vitest run --config scripts/experiments/capture-transcripts.config.ts -t claude
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'vitest';
import { SUM_BROKEN } from '../../tests/claude/gate-project.mjs';
import { useScenarios as useClaude } from '../../tests/claude/scenario.js';
import type { Step as ClaudeStep } from '../../tests/claude/mock-anthropic.mjs';
import { useChatScenarios } from '../../tests/harness/chat-completions-scenario.js';
import type { Step as ChatStep } from '../../tests/harness/chat-completions-mock.mjs';
import { useScenarios as useCodex } from '../../tests/harness/codex/scenario.js';
import { exec, text } from '../../tests/harness/codex/mock-responses.js';
import { useGeminiScenarios } from '../../tests/harness/gemini/scenario.js';
import { gemini } from '../../tests/harness/gemini/gemini-cli.js';
import { qwen } from '../../tests/harness/qwen/qwen-cli.js';

const OUT = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'transcripts');
const PLACEHOLDER = '/tmp/gate-fixture';
const README_NOTE = '# fixture\n\nAdds numbers.\n';
const COMMENT = '/** The sum of two numbers. */\nexport function';

/** The temp root replaced by PLACEHOLDER, as a path and as Claude Code and Qwen Code escape it in folder names. */
const scrub = (text: string, root: string): string => text.split(root).join(PLACEHOLDER).split(dashed(root)).join(dashed(PLACEHOLDER));
const dashed = (path: string): string => path.replace(/[^a-zA-Z0-9]/g, '-');

/** Copies every transcript under `from` (relative paths kept) into OUT/harness/sub, scrubbed. */
function save(harness: string, sub: string, from: string, root: string): void {
  if (!existsSync(from)) return;
  for (const file of walk(from)) {
    if (!/\.(jsonl|json)$|\.project_root$/.test(file) || /settings\.json$|installation_id|config\.toml/.test(file)) continue;
    const target = join(OUT, harness, sub, scrub(relative(from, file), root));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, scrub(readFileSync(file, 'utf8'), root));
    console.log(`[capture] ${harness}: ${relative(OUT, target)}`);
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function saveStops(harness: string, repo: string, root: string): void {
  const log = join(repo, '.git', 'gate', 'stops.jsonl');
  mkdirSync(join(OUT, harness), { recursive: true });
  if (existsSync(log)) writeFileSync(join(OUT, harness, 'stops.jsonl'), scrub(readFileSync(log, 'utf8'), root));
}

describe('capture', () => {
  const claude = useClaude();
  it('claude', async () => {
    const scenario = await claude();
    const { repo, root, configDir } = scenario.project;
    const file = join(repo, 'src/sum.ts');
    const tool = (name: string, input: Record<string, unknown>): ClaudeStep => ({ toolUse: { name, input } });
    await scenario.run('Refactor sum.', [
      tool('Read', { file_path: file }),
      tool('Write', { file_path: file, content: SUM_BROKEN }),
      { text: 'Refactored.' },
      tool('Edit', { file_path: file, old_string: 'a - b', new_string: 'a + b' }),
      tool('Bash', { command: 'npx vitest run' }),
      { text: 'Fixed, and the tests pass.' },
    ]);
    await scenario.run('Describe the project in the README.', [tool('Read', { file_path: join(repo, 'README.md') }), tool('Write', { file_path: join(repo, 'README.md'), content: README_NOTE }), { text: 'Done.' }], { extraArgs: ['--continue'] });
    await scenario.run('What does sum do?', [{ text: 'It adds two numbers.' }]);
    await scenario.run('Document sum.', [tool('Read', { file_path: file }), tool('Edit', { file_path: file, old_string: 'export function', new_string: COMMENT }), { text: 'Documented.' }]);
    await scenario.run('Make sum subtract.', [tool('Read', { file_path: file }), tool('Edit', { file_path: file, old_string: 'a + b', new_string: 'a - b' }), { text: 'Done.' }, { text: 'Leaving it: you asked for it.' }]);
    rmSync(join(OUT, 'claude'), { recursive: true, force: true });
    save('claude', 'projects', join(configDir, 'projects'), root);
    saveStops('claude', repo, root);
  });

  const codex = useCodex();
  it('codex', async () => {
    const scenario = await codex();
    const { repo, root, home } = scenario.project;
    const patch = (from: string, to: string) => `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/sum.ts\n@@\n-  return ${from};\n+  return ${to};\n*** End Patch\nEOF\n`;
    await scenario.run('Refactor sum.', [exec(patch('a + b', 'a - b')), text('Refactored.'), exec(patch('a - b', 'a + b')), exec('npx vitest run'), text('Fixed, and the tests pass.')]);
    await scenario.run('Describe the project in the README.', [exec(`cat > README.md <<'EOF'\n${README_NOTE}EOF\n`), text('Done.')]);
    await scenario.run('What does sum do?', [text('It adds two numbers.')]);
    const insert = `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/sum.ts\n@@\n+${COMMENT.split('\n')[0]}\n export function sum(a: number, b: number): number {\n*** End Patch\nEOF\n`;
    await scenario.run('Document sum.', [exec(insert), text('Documented.')]);
    await scenario.run('Make sum subtract.', [exec("sed -i 's/a + b/a - b/' src/sum.ts"), text('Done.'), text('Leaving it: you asked for it.')]);
    rmSync(join(OUT, 'codex'), { recursive: true, force: true });
    save('codex', 'sessions', join(home, '.codex', 'sessions'), root);
    saveStops('codex', repo, root);
  });

  // Qwen Code refuses to overwrite a file it has not read in the session.
  const chatRuns = (cli: typeof gemini, editTool: string, readFirst: boolean) => async (start: ReturnType<typeof useChatScenarios>, harness: string, dir: string) => {
    const scenario = await start([['--harness', harness]]);
    const { repo, root, home } = scenario.project;
    const file = join(repo, 'src/sum.ts');
    const call = (name: string, args: Record<string, unknown>): ChatStep => ({ toolCalls: [{ name, arguments: args }] });
    const read = (path: string): ChatStep[] => (readFirst ? [call('read_file', { file_path: path })] : []);
    await scenario.run('Refactor sum.', [
      ...read(file),
      call('write_file', { file_path: file, content: SUM_BROKEN }),
      { text: 'Refactored.' },
      call(editTool, { file_path: file, old_string: 'a - b', new_string: 'a + b', instruction: 'Add instead of subtract.' }),
      cli.shell('npx vitest run'),
      { text: 'Fixed, and the tests pass.' },
    ]);
    await scenario.run('Describe the project in the README.', [...read(join(repo, 'README.md')), call('write_file', { file_path: join(repo, 'README.md'), content: README_NOTE }), { text: 'Done.' }]);
    await scenario.run('What does sum do?', [{ text: 'It adds two numbers.' }]);
    const change = (from: string, to: string): ChatStep => call(editTool, { file_path: file, old_string: from, new_string: to, instruction: 'Change sum.' });
    await scenario.run('Document sum.', [...read(file), change('export function', COMMENT), { text: 'Documented.' }]);
    await scenario.run('Make sum subtract.', [...read(file), change('a + b', 'a - b'), { text: 'Done.' }, { text: 'Leaving it: you asked for it.' }]);
    rmSync(join(OUT, harness), { recursive: true, force: true });
    save(harness, 'tmp', join(home, dir, 'tmp'), root);
    save(harness, 'projects', join(home, dir, 'projects'), root);
    saveStops(harness, repo, root);
  };

  const geminiStart = useGeminiScenarios();
  it('gemini', async () => {
    await chatRuns(gemini, 'replace', false)(geminiStart as unknown as ReturnType<typeof useChatScenarios>, 'gemini', '.gemini');
  });

  const qwenStart = useChatScenarios(qwen);
  it('qwen', async () => {
    await chatRuns(qwen, 'edit', true)(qwenStart, 'qwen', '.qwen');
  });
});
