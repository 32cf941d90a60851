/**
 * Calls `onChar` with each index of `text` that is outside a 'single' or "double" quoted string
 * (`\` escapes in double quotes, `''` in single ones, as YAML has them); stops when it returns true.
 * Returns the index it stopped at, or -1.
 */
export function scanOutsideQuotes(text: string, onChar: (char: string, index: number) => boolean): number {
  let quote = '';
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (quote) {
      if (char === '\\' && quote === '"') index += 1;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (onChar(char, index)) return index;
  }
  return -1;
}
