import { encodeBytes, hasRawBytes } from '../git/path-bytes.js';

// node:child_process passes every word as UTF-8: a name that is not (see decodeBytes) goes as
// octal escapes that POSIX `printf %b` turns back into its bytes (the "x" keeps a final newline).
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
const DECODE = 'n=$#; while [ "$n" -gt 0 ]; do w=$(printf \'%bx\' "$1"); shift; set -- "$@" "${w%x}"; n=$((n-1)); done; exec "$@"';

/** argv as spawned: itself, or when a word holds raw bytes, run through /bin/sh, which restores them. */
export function spawnableArgv(argv: string[]): string[] {
  if (!argv.some(hasRawBytes)) return argv;
  return ['/bin/sh', '-c', DECODE, 'gate', ...argv.map(octalEscape)];
}

/** A word for a `/bin/sh -c` command line that yields the name's exact bytes. */
export function rawShellWord(word: string): string {
  return `"$(printf '%b' '${octalEscape(word)}')"`;
}

function octalEscape(word: string): string {
  let text = '';
  for (const byte of encodeBytes(word)) {
    const char = String.fromCharCode(byte);
    text += /[A-Za-z0-9_./:=@%+,-]/.test(char) ? char : `\\0${byte.toString(8).padStart(3, '0')}`;
  }
  return text;
}
