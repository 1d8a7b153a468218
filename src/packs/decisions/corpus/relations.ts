/**
 * Supersession and amendment relations as records write them: front-matter
 * keys, `Superseded by [9. Foo](0009-foo.md)` lines in a Nygard status
 * section, `- Supersedes [..](..)` bullets, `This decision supersedes [..]`
 * prose. The refs are kept verbatim; the graph resolves them later.
 */
import type { DecisionLinks } from './model.js';
import { nextLineStart } from './text.js';

export type RelationKind = keyof DecisionLinks;

const VERBS: ReadonlyArray<readonly [RegExp, RelationKind]> = [
  [/^super[sc]eded\s+by$/i, 'supersededBy'],
  [/^super[sc]edes$/i, 'supersedes'],
  [/^amended\s+by$/i, 'amendedBy'],
  [/^amends$/i, 'amends'],
];

const RELATION_LINE =
  /^\s*(?:[-*+]\s+)?(?:(?:this|the)\s+(?:decision|adr|record)\s+(?:is\s+)?)?(super[sc]edes|super[sc]eded\s+by|amends|amended\s+by)\b\s*:?\s*(.*)$/i;
const MD_LINK = /\[[^\]]*\]\([^)]*\)/g;
const STRICT_REF = /^(?:adr[-_ #]?\d+|\d+|\S+\.(?:md|markdown))$/i;

export function relationKind(verb: string): RelationKind | null {
  const v = verb.trim();
  for (const [re, kind] of VERBS) if (re.test(v)) return kind;
  return null;
}

/**
 * The references in the rest of a relation line: every Markdown link, else
 * comma/"and"-separated plain refs. `strict` (used for free prose) only keeps
 * plain refs that look like a number, `ADR-n` or a Markdown file.
 */
export function extractRefs(rest: string, strict: boolean): string[] {
  const links = rest.match(MD_LINK);
  if (links !== null) return links;
  return rest
    .replace(/[.;]\s*$/, '')
    .split(/,|\s+and\s+/)
    .map((s) => s.trim().replace(/^["'`]+|["'`]+$/g, ''))
    .filter((s) => s !== '' && (strict ? STRICT_REF.test(s) : !/\s/.test(s) || STRICT_REF.test(s)));
}

export class LinkCollector {
  private readonly lists: Record<RelationKind, string[]> = {
    supersedes: [],
    supersededBy: [],
    amends: [],
    amendedBy: [],
  };

  add(kind: RelationKind, ref: string): void {
    const r = ref.trim();
    if (r !== '' && !this.lists[kind].includes(r)) this.lists[kind].push(r);
  }

  addAll(kind: RelationKind, refs: readonly string[]): void {
    for (const r of refs) this.add(kind, r);
  }

  has(kind: RelationKind): boolean {
    return this.lists[kind].length > 0;
  }

  toLinks(): DecisionLinks {
    return { ...this.lists };
  }
}

/** Parse one line as a relation declaration, or null when it is not one. */
export function parseRelationLine(
  line: string,
  strict: boolean,
): { kind: RelationKind; refs: string[] } | null {
  const m = RELATION_LINE.exec(line);
  if (m === null) return null;
  const kind = relationKind(m[1] ?? '');
  if (kind === null) return null;
  const refs = extractRefs(m[2] ?? '', strict);
  return refs.length === 0 ? null : { kind, refs };
}

/**
 * First-character screen before the regex: after indentation and a bullet, a
 * relation line starts with s(upersedes), a(mends) or t(his decision). Most
 * lines fail here without running a regex at all.
 */
function mayBeRelation(text: string, pos: number): boolean {
  let c = text.charCodeAt(pos);
  while (c === 0x20 || c === 0x09) c = text.charCodeAt(++pos);
  if (c === 0x2d || c === 0x2a || c === 0x2b) {
    c = text.charCodeAt(++pos);
    while (c === 0x20 || c === 0x09) c = text.charCodeAt(++pos);
  }
  c |= 0x20;
  return c === 0x73 || c === 0x61 || c === 0x74;
}

/** Cheap test for "could this line be a relation?", anchored at a line start via the sticky flag. */
const RELATION_START =
  /[ \t]*(?:[-*+][ \t]+)?(?:(?:this|the)[ \t]+(?:decision|adr|record)[ \t]+(?:is[ \t]+)?)?(?:super[sc]ed|amend)/iy;

/**
 * Find relation lines anywhere in `text[from, to)`. Walks line starts and
 * tries an anchored (sticky) regex at each, which fails on the first
 * character of almost every line; only candidates are parsed fully.
 */
export function scanRelationLines(text: string, from: number, to: number, out: LinkCollector): void {
  for (let pos = from; pos < to; ) {
    const end = nextLineStart(text, pos);
    if (!mayBeRelation(text, pos)) {
      pos = end;
      continue;
    }
    RELATION_START.lastIndex = pos;
    if (RELATION_START.test(text)) {
      const parsed = parseRelationLine(text.slice(pos, end).trimEnd(), true);
      if (parsed !== null) out.addAll(parsed.kind, parsed.refs);
    }
    pos = end;
  }
}

/** `superseded by [ADR-5](0005-x.md)` inside a status value: the status word plus its refs. */
export function relationsInStatus(value: string, out: LinkCollector): void {
  const m = /^\s*(super[sc]eded\s+by|amended\s+by)\b\s*:?\s*(.*)$/i.exec(value);
  if (m === null) return;
  const kind = relationKind(m[1] ?? '');
  if (kind !== null) out.addAll(kind, extractRefs(m[2] ?? '', false));
}
