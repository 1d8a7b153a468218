/**
 * Text the CLI prints for people goes to a terminal, and a terminal obeys
 * control characters: a decision title holding `ESC ] 52 ; …` could rewrite
 * the clipboard, `ESC [ 2 J` clears the screen, a bare BEL or backspace
 * hides what came before. Titles, file names and statuses are written by
 * whoever wrote the repository, so every control character (C0 except
 * newline and tab, DEL, C1) is shown as `\xHH` instead; layout keeps working
 * and nothing the repository holds can steer the terminal. `--json` output
 * does not pass through here: JSON escapes controls itself and stays exact.
 */

// C0 without \t (0x09) and \n (0x0a), then DEL and the C1 block.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function visibleText(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
