import { describe, expect, it } from 'vitest';
import { quoteCommand, splitCommand } from '../../src/plan/split-command.js';

describe('splitCommand', () => {
  it.each([
    ['vitest run --reporter=default', ['vitest', 'run', '--reporter=default']],
    [`eslint "src dir" 'it''s'`, ['eslint', 'src dir', 'its']],
    ['echo a\\ b "x\\"y" \'$HOME\'', ['echo', 'a b', 'x"y', '$HOME']],
    ['  spaced   out  ', ['spaced', 'out']],
    ['printf "" end', ['printf', '', 'end']],
    ['a; rm -rf / | cat > x', ['a;', 'rm', '-rf', '/', '|', 'cat', '>', 'x']],
  ])('splits %j', (command, argv) => {
    expect(splitCommand(command)).toEqual(argv);
  });

  it('refuses an unterminated quote', () => {
    expect(() => splitCommand('echo "oops')).toThrow(/unterminated " quote/);
  });

  it('quotes for display so that splitting gives the argv back', () => {
    const argv = ['npx', 'vitest', 'run', 'a file.ts', "it's", '--x=1'];
    expect(splitCommand(quoteCommand(argv))).toEqual(argv);
    expect(quoteCommand(['vitest', 'run'])).toBe('vitest run');
  });
});
