/**
 * Supersession and amendment relations as records write them: front-matter
 * keys, `Superseded by [9. Foo](0009-foo.md)` lines in a Nygard status
 * section, `- Supersedes [..](..)` bullets, `This decision supersedes [..]`
 * prose. The refs are kept verbatim; the graph resolves them later.
 */
import type { DecisionLinks } from '../model.js';
import { nextLineStart } from '../read/text.js';

export type RelationKind = Exclude<keyof DecisionLinks, 'partial'>;

const VERBS: ReadonlyArray<readonly [RegExp, RelationKind]> = [
  [/^super[sc]eded\s+by$/i, 'supersededBy'],
  [/^super[sc]edes$/i, 'supersedes'],
  // A record replaced or reverted by a later one is no longer in force: that later one supersedes it.
  [/^(?:replaced|reverted)\s+by$/i, 'supersededBy'],
  [/^replaces$/i, 'supersedes'],
  [/^amended\s+by$/i, 'amendedBy'],
  [/^amends$/i, 'amends'],
];

const RELATION_LINE =
  /^\s*(?:[-*+]\s+)?(?:(?:this|the)\s+(?:decision|adr|record)\s+(?:is\s+|was\s+|has\s+been\s+)?)?((?:partly\s+|partially\s+)?(?:super[sc]edes|super[sc]eded(?:\s+in\s+part)?\s+by|replaces|(?:replaced|reverted)\s+by|amends|amended\s+by))\b\s*:?\s*(.*)$/i;
const MD_LINK = /\[[^\]]*\]\([^)]*\)/g;
const STRICT_REF = /^(?:adr[-_ #]?\d+|#?\d+|\S+\.(?:md|markdown))$/i;
/** A proposal process's own prefix before the number: `TEP-0023`, `KEP-1234` (written in capitals). */
const PREFIXED_REF = /^[A-Z]{2,8}-\d+$/;
const BARE_NUMBER = /^#?\d+$/;
/** The prefix alone, when a space parts it from the number: `RFC 42`, `PEP 8`. */
const PREFIX_WORD = /^[A-Z]{2,8}$/;
/** Words allowed before and between refs: "supersedes the decisions made in ADRs 60 and 61". */
const FILLER = new Set([
  'the',
  'a',
  'an',
  'decision',
  'decisions',
  'made',
  'in',
  'adr',
  'adrs',
  'record',
  'records',
  'some',
  'aspects',
  'aspect',
  'of',
  'part',
  'parts',
  'previous',
  'earlier',
  'prior',
  'our',
  'those',
  'these',
  'and',
  '&',
  'number',
  'numbers',
  'no',
  'nos',
  'both',
  'partly',
  'partially',
  'by',
  'also',
  'with',
]);
/** Words saying a supersession covers only part of a record. */
const PARTIAL = /\b(?:partly|partially|in\s+part|some\s+aspects?\s+of|parts?\s+of)\b/i;
/** Decoration before a relation or status: emoji, bold markers, a bracketed word that is not a link. */
const LEADING_NOISE = /^[^\p{L}\p{N}[]+/u;
const BOLD = /\*\*|__/g;
const BARE_BRACKETS = /\[([^\]]*)\](?!\()/g;

/** `⌛️ **Superseded by** [ADR-5]` → `Superseded by ADR-5`: what the relation and status grammars read. */
export function cleanStatement(line: string): string {
  return line.replace(BOLD, '').replace(BARE_BRACKETS, '$1').replace(LEADING_NOISE, '').trim();
}

export function relationKind(verb: string): RelationKind | null {
  const v = verb
    .trim()
    .replace(/^(?:partly|partially)\s+/i, '')
    .replace(/\s+in\s+part/i, '');
  for (const [re, kind] of VERBS) if (re.test(v)) return kind;
  return null;
}

/**
 * Refs written as a list after a relation verb, allowing a few filler words
 * ("the decisions made in ADRs 60 and 61", "some aspects of 15 and 16"). Stops
 * at the first word that is neither, so prose after the list is not read.
 */
function listedRefs(rest: string): string[] {
  const out: string[] = [];
  const tokens = rest.split(/[\s,;]+/).map((word) => word.replace(/^[("'`[]+|[)"'`\].:;!?]+$/g, ''));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (token === '') continue;
    const next = tokens[i + 1] ?? '';
    if (STRICT_REF.test(token) || PREFIXED_REF.test(token)) out.push(token);
    // `ADR 7` keeps its old reading (the filler word, then 7).
    else if (PREFIX_WORD.test(token) && token !== 'ADR' && /^\d+$/.test(next)) {
      out.push(`${token} ${next}`);
      i++;
    } else if (!FILLER.has(token.toLowerCase())) break;
  }
  return out;
}

/**
 * The references in the rest of a relation line: every Markdown link, else
 * the listed refs (numbers, `ADR-n`, `.md` files). `strict` (used for free
 * prose) stops there; otherwise (a field value) comma/"and"-separated
 * single words are taken as slugs too.
 */
export function extractRefs(rest: string, strict: boolean): string[] {
  const links = rest.match(MD_LINK);
  if (links !== null) return links;
  const listed = listedRefs(rest);
  if (listed.length > 0 || strict) return listed;
  return rest
    .replace(/[.;]\s*$/, '')
    .split(/,|\s+and\s+/)
    .map((s) => s.trim().replace(/^["'`[]+|["'`\]]+$/g, ''))
    .filter((s) => s !== '' && !/\s/.test(s));
}

export class LinkCollector {
  private readonly lists: Record<RelationKind, string[]> = {
    supersedes: [],
    supersededBy: [],
    amends: [],
    amendedBy: [],
  };

  private readonly partial: string[] = [];

  add(kind: RelationKind, ref: string, partial = false): void {
    const r = ref.trim();
    if (r === '') return;
    if (!this.lists[kind].includes(r)) this.lists[kind].push(r);
    if (partial && !this.partial.includes(r)) this.partial.push(r);
  }

  addAll(kind: RelationKind, refs: readonly string[], partial = false): void {
    for (const r of refs) this.add(kind, r, partial);
  }

  has(kind: RelationKind): boolean {
    return this.lists[kind].length > 0;
  }

  toLinks(): DecisionLinks {
    return this.partial.length === 0 ? { ...this.lists } : { ...this.lists, partial: this.partial };
  }
}

/** Parse one line as a relation declaration, or null when it is not one. */
export interface RelationLine {
  readonly kind: RelationKind;
  readonly refs: string[];
  /** "Partly superseded by", "supersedes some aspects of". */
  readonly partial: boolean;
}

export function parseRelationLine(line: string, strict: boolean): RelationLine | null {
  const m = RELATION_LINE.exec(line);
  if (m === null) return null;
  const verb = m[1] ?? '';
  const kind = relationKind(verb);
  if (kind === null) return null;
  const rest = m[2] ?? '';
  let refs = extractRefs(rest, strict);
  // "Replaces 3 cron jobs" is prose: in free text that verb names a record only by more than a number.
  if (strict && /^replace/i.test(verb)) refs = refs.filter((r) => !BARE_NUMBER.test(r));
  if (refs.length === 0) return null;
  // Only what comes before the refs qualifies them: "… by [5](x.md), part of the platform" is whole.
  const lead = rest.slice(0, Math.max(0, rest.indexOf(refs[0] ?? '')));
  return { kind, refs, partial: PARTIAL.test(verb) || PARTIAL.test(lead) };
}

/**
 * First-character screen before the regex: after indentation and a bullet, a
 * relation line starts with s(upersedes), a(mends), t(his decision),
 * p(artly superseded) or r(eplaces, reverted by). Most
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
  return c === 0x73 || c === 0x61 || c === 0x74 || c === 0x70 || c === 0x72;
}

/** Cheap test for "could this line be a relation?", anchored at a line start via the sticky flag. */
const RELATION_START =
  /[ \t]*(?:[-*+][ \t]+)?(?:(?:this|the)[ \t]+(?:decision|adr|record)[ \t]+(?:is[ \t]+|was[ \t]+|has[ \t]+been[ \t]+)?)?(?:(?:partly|partially)[ \t]+)?(?:super[sc]ed|amend|replace|reverted[ \t]+by)/iy;

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
      if (parsed !== null) out.addAll(parsed.kind, parsed.refs, parsed.partial);
    }
    pos = end;
  }
}

/** `superseded by [ADR-5](0005-x.md)` inside a status value: the status word plus its refs. */
export function relationsInStatus(value: string, out: LinkCollector): void {
  const parsed = parseRelationLine(cleanStatement(value), false);
  if (parsed !== null && (parsed.kind === 'supersededBy' || parsed.kind === 'amendedBy'))
    out.addAll(parsed.kind, parsed.refs, parsed.partial);
}
