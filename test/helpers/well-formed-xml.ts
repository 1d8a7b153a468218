/**
 * A strict check that a document is well-formed XML 1.0, for the SVG moor
 * draws (no XML parser is among the dependencies, and adding one for a test
 * is not worth it). It covers what moor's writer can get wrong: characters
 * outside XML's Char production, markup in text or attribute values, entity
 * references, attribute syntax, and tags that do not nest.
 * Answers the problems found; an empty list means well-formed.
 */

/** XML 1.0 §2.2 Char: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const NAME = /^[A-Za-z_:][\w.:-]*$/;
const REFERENCE = /^&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_][\w.-]*);/;
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

function referenceProblem(text: string, at: number): string | undefined {
  const match = REFERENCE.exec(text.slice(at));
  if (!match) return `a bare & at ${at}`;
  const body = match[0].slice(1, -1);
  if (body.startsWith('#')) {
    const code = body.startsWith('#x')
      ? Number.parseInt(body.slice(2), 16)
      : Number.parseInt(body.slice(1), 10);
    return isXmlChar(code) ? undefined : `a reference to a character XML forbids (${match[0]})`;
  }
  return PREDEFINED.has(body) ? undefined : `an undeclared entity ${match[0]}`;
}

/** Character data (or an attribute value, quote given): no `<`, every `&` a valid reference. */
function dataProblems(text: string, offset: number, quote?: string): string[] {
  const problems: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') problems.push(`a < in ${quote ? 'an attribute value' : 'text'} at ${offset + i}`);
    if (c === quote) problems.push(`an unescaped ${quote} at ${offset + i}`);
    if (c === '&') {
      const problem = referenceProblem(text, i);
      if (problem) problems.push(`${problem} (offset ${offset + i})`);
    }
  }
  return problems;
}

function attributeProblems(source: string, offset: number): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let rest = source;
  let at = offset;
  const ATTRIBUTE = /^\s+([^\s=/>]+)\s*=\s*(["'])/;
  for (;;) {
    if (/^\s*$/.test(rest)) return problems;
    const match = ATTRIBUTE.exec(rest);
    if (!match) return [...problems, `malformed attributes at ${at}: ${JSON.stringify(rest.slice(0, 40))}`];
    const [whole, name, quote] = match as unknown as [string, string, string];
    if (!NAME.test(name)) problems.push(`a bad attribute name ${JSON.stringify(name)} at ${at}`);
    if (seen.has(name)) problems.push(`attribute ${name} twice at ${at}`);
    seen.add(name);
    const end = rest.indexOf(quote, whole.length);
    if (end < 0) return [...problems, `an unterminated attribute value at ${at}`];
    problems.push(...dataProblems(rest.slice(whole.length, end), at + whole.length, quote));
    at += end + 1;
    rest = rest.slice(end + 1);
  }
}

export function xmlProblems(document: string): string[] {
  const problems: string[] = [];
  for (let i = 0; i < document.length; i++) {
    const code = document.codePointAt(i) as number;
    if (code > 0xffff) i++;
    else if (!isXmlChar(code)) problems.push(`character U+${code.toString(16).padStart(4, '0')} at ${i}`);
  }
  const open: string[] = [];
  let roots = 0;
  let i = 0;
  while (i < document.length) {
    const lt = document.indexOf('<', i);
    const textEnd = lt < 0 ? document.length : lt;
    const text = document.slice(i, textEnd);
    if (open.length === 0 && text.trim() !== '') problems.push(`text outside the root element at ${i}`);
    problems.push(...dataProblems(text, i));
    if (lt < 0) break;
    const gt = document.indexOf('>', lt);
    if (gt < 0) {
      problems.push(`an unterminated tag at ${lt}`);
      break;
    }
    const tag = document.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const expected = open.pop();
      if (name !== expected) problems.push(`</${name}> at ${lt} closes <${expected ?? 'nothing'}>`);
    } else {
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const name = /^[^\s/>]*/.exec(body)?.[0] ?? '';
      if (!NAME.test(name)) problems.push(`a bad element name ${JSON.stringify(name)} at ${lt}`);
      problems.push(...attributeProblems(body.slice(name.length), lt + 1 + name.length));
      if (open.length === 0) roots++;
      if (!selfClosing) open.push(name);
    }
    i = gt + 1;
  }
  if (open.length > 0) problems.push(`unclosed elements: ${open.join(', ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
