import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCheckCommand } from '../../src/history/check-command.js';
import { writesFiles } from '../../src/history/shell-edit.js';

const PRESETS = join(import.meta.dirname, '..', '..', 'presets');

describe('isCheckCommand', () => {
  it("recognises every preset's command, run directly and through npx", () => {
    for (const file of readdirSync(PRESETS).filter((name) => name.endsWith('.json'))) {
      const preset = JSON.parse(readFileSync(join(PRESETS, file), 'utf8')) as { run: string[] };
      expect(isCheckCommand(preset.run.join(' ')), file).toBe(true);
      expect(isCheckCommand(`npx ${preset.run.join(' ')}`), file).toBe(true);
    }
  });

  it.each([
    'npm test',
    'npm run test:unit -- --coverage',
    'pnpm -r test',
    'yarn lint',
    'bun test',
    'npx vitest run src/sum.test.ts',
    './node_modules/.bin/jest --ci',
    'cd packages/app && npm run typecheck',
    'CI=1 npx tsc --noEmit',
    'python -m pytest -q tests/',
    'uv run pytest',
    'go test ./... 2>&1 | tail -20',
    'cargo clippy --all-targets',
    'node --test',
    'make check',
    'npx gate check --all',
    'nx run-many --targets=test',
  ])('%s is a check', (command) => {
    expect(isCheckCommand(command)).toBe(true);
  });

  it.each(['npm install', 'npm ci', 'npm run build', 'git status', 'ls test', 'cat src/sum.test.ts', 'go build ./...', 'cargo build', 'node script.js', 'echo npm test', 'yarn add vitest'])('%s is not', (command) => {
    expect(isCheckCommand(command)).toBe(false);
  });
});

describe('writesFiles', () => {
  it.each(["cat > src/sum.ts <<'EOF'\nx\nEOF", "apply_patch <<'EOF'\n*** Begin Patch\nEOF", "sed -i 's/a/b/' src/sum.ts", 'echo x >> notes.md', 'printf "%s" x > a.txt', 'git apply fix.patch', 'echo x | tee out.txt'])('%s writes', (command) => {
    expect(writesFiles(command)).toBe(true);
  });

  it.each(['npx vitest run > /dev/null 2>&1', 'npm test 2>&1', 'cat src/sum.ts', 'sed -n 1,20p src/sum.ts', 'echo done', 'git status', 'ls > /dev/null'])('%s does not', (command) => {
    expect(writesFiles(command)).toBe(false);
  });
});
