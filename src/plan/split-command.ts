/**
 * Splits a command string into argv the way a POSIX shell would for quoting ('…', "…", \x) —
 * and nothing else: no variables, globs, pipes or redirections are interpreted, because no shell
 * runs it. Throws on an unterminated quote.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && /["\\$`]/.test(command.charAt(i + 1))) word += command.charAt(++i);
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command.charAt(++i);
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in ${JSON.stringify(command)}`);
  if (inWord) words.push(word);
  return words;
}

/** Quotes argv for display, so that the command a report shows can be pasted into a shell. */
export function quoteCommand(argv: string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
