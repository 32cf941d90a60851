// JavaScript strings count UTF-16 units, so a cut can land inside an emoji (a surrogate pair). A lone
// half is not text: JSON.stringify writes it as `\ud83d`, which Copilot CLI rejects whole (the block
// is then dropped), and other harnesses show U+FFFD.

/** The first `length` UTF-16 units, one fewer when the cut would split a surrogate pair. */
export function sliceWhole(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The text with any lone surrogate replaced by U+FFFD, so every JSON parser reads it. */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
