/**
 * Whether an agent's last message ends its turn with a question to the human: its final paragraph
 * is prose (not code, a quote, a heading or a table) whose last character is a question mark, once
 * markdown emphasis is taken off. Deliberately narrow: a question followed by a summary, a question
 * inside code or quotes, and a message that ends with a code block are not asking.
 */
export function endsWithQuestion(message: string | undefined): boolean {
  if (message === undefined) return false;
  const paragraph = finalParagraph(message);
  if (paragraph === undefined) return false;
  const lines = paragraph.split('\n');
  if (lines.every((line) => /^( {4}|\t)/.test(line))) return false;
  const last = (lines.at(-1) ?? '').trim();
  if (/^(>|#{1,6}\s|\|)/.test(last)) return false;
  // `**Should I go on?**` is a question; `"is it missing?"`, `(or not?)` and `` `a?` `` are not.
  const bare = last.replace(/(\*{1,3}|_{1,3}|~~)$/, '').trimEnd();
  return QUESTION_MARKS.test(bare);
}

/** ASCII, fullwidth (CJK), small form, Arabic, inverted-reversed, Ethiopic and Armenian question marks. */
const QUESTION_MARKS = /[?\uFF1F\uFE56\u061F\u2E2E\u1367\u055E]$/u;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The last paragraph (after the last blank line) of the message's prose; undefined when the message
 * ends inside or with a fenced code block, or is empty.
 */
function finalParagraph(message: string): string | undefined {
  let fence: string | undefined;
  let paragraph: string[] = [];
  let blank = false;
  for (const line of message.replace(/\r\n?/g, '\n').split('\n')) {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      paragraph = [];
    } else if (line.trim() === '') {
      blank = true;
    } else {
      if (blank) paragraph = [];
      blank = false;
      paragraph.push(line);
    }
  }
  if (fence !== undefined || paragraph.length === 0) return undefined;
  return paragraph.join('\n');
}
