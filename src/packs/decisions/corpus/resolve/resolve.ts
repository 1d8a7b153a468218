/**
 * Reference resolution: every way a person or a record can name a decision
 * (number in any spelling, id, slug, file stem, title, path relative to the
 * corpus or workspace, a Markdown link relative to the declaring file).
 */
import path from 'node:path';
import type { Decision } from '../model.js';
import {
  identityFromFileName,
  identityFromTitle,
  parseRef,
  refKey,
  stripMarkdownExt,
} from '../read/identity.js';
import { boundedDistance } from '../search/edit-distance.js';

export type ResolveResult =
  | { readonly kind: 'found'; readonly decision: Decision }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly Decision[] }
  | { readonly kind: 'not-found'; readonly suggestions: readonly Decision[] };

const MAX_SUGGESTIONS = 5;

type Bucket = Decision | Decision[];

/** Most keys name one decision; only collisions pay for an array. */
function push<K>(map: Map<K, Bucket>, key: K, d: Decision): void {
  const cur = map.get(key);
  if (cur === undefined) map.set(key, d);
  else if (Array.isArray(cur)) {
    if (!cur.includes(d)) cur.push(d);
  } else if (cur !== d) map.set(key, [cur, d]);
}

function pull<K>(map: Map<K, Bucket>, key: K, d: Decision): void {
  const cur = map.get(key);
  if (cur === d) map.delete(key);
  else if (Array.isArray(cur)) {
    const rest = cur.filter((x) => x !== d);
    map.set(key, rest.length === 1 ? (rest[0] as Decision) : rest);
  }
}

function byPath(a: Decision, b: Decision): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function outcome(found: Bucket | undefined): ResolveResult | null {
  if (found === undefined) return null;
  if (!Array.isArray(found)) return { kind: 'found', decision: found };
  return { kind: 'ambiguous', candidates: [...found].sort(byPath) };
}

/** The names a decision can be found by besides its path: number, id, slug, file stem and title. */
interface NameIndex {
  readonly byNumber: Map<number, Bucket>;
  readonly byKey: Map<string, Bucket>;
}

/** The keys a decision is named by; the same keys are used to add and to remove it. */
function namesOf(d: Decision): string[] {
  const stem = stripMarkdownExt(d.corpusPath);
  const fileStem = stem.slice(stem.lastIndexOf('/') + 1);
  return [refKey(d.id), refKey(d.slug), refKey(fileStem), refKey(d.title)];
}

function addNames(names: NameIndex, d: Decision): void {
  if (d.number !== null) push(names.byNumber, d.number, d);
  for (const k of namesOf(d)) push(names.byKey, k, d);
}

/** Its corpus-relative stem, and its workspace-relative one when they differ. */
function pathsOf(d: Decision, corpusPrefix: string): string[] {
  const stem = stripMarkdownExt(d.corpusPath);
  return corpusPrefix === '' ? [stem] : [stem, `${corpusPrefix}/${stem}`];
}

/**
 * `text` read relative to the folder of `fromCorpusPath` (a normalized corpus
 * path), normalized as path.posix.join would: a plain file name, the usual
 * link, is put after the folder without path's normalizing pass, which a load
 * runs for every relation in code that has not warmed up.
 */
export function siblingPath(fromCorpusPath: string, text: string): string {
  const slash = fromCorpusPath.lastIndexOf('/');
  const plain = text !== '' && text !== '.' && text !== '..' && !text.includes('/');
  if (!plain) return path.posix.join(path.posix.dirname(fromCorpusPath), text);
  return slash < 0 ? text : `${fromCorpusPath.slice(0, slash + 1)}${text}`;
}

/** Kept up to date one decision at a time, so a refresh does not rebuild it. */
export class RefIndex {
  /** Workspace- and corpus-relative paths without the Markdown extension. */
  private readonly byPath = new Map<string, Bucket>();
  /**
   * Built from `all` when a reference first needs a name: relations are
   * nearly always links, found by path, and a one-shot run on 1,000 records
   * spent ~2 ms filing names it never looked up. Kept up to date from then on.
   */
  private names: NameIndex | null = null;

  /**
   * `all` lists the current decisions (for suggestions); `corpusPrefix` is the
   * corpus folder relative to the workspace root, POSIX, '' when they coincide.
   */
  constructor(
    private readonly all: () => readonly Decision[],
    private readonly corpusPrefix: string,
  ) {}

  /** Call with `all` already listing `d`. */
  add(d: Decision): void {
    if (this.names !== null) addNames(this.names, d);
    for (const p of pathsOf(d, this.corpusPrefix)) push(this.byPath, p, d);
  }

  /** Call with `all` no longer listing `d`. */
  remove(d: Decision): void {
    const names = this.names;
    if (names !== null) {
      if (d.number !== null) pull(names.byNumber, d.number, d);
      for (const k of namesOf(d)) pull(names.byKey, k, d);
    }
    for (const p of pathsOf(d, this.corpusPrefix)) pull(this.byPath, p, d);
  }

  private get byNumber(): Map<number, Bucket> {
    return this.named().byNumber;
  }

  private get byKey(): Map<string, Bucket> {
    return this.named().byKey;
  }

  private named(): NameIndex {
    if (this.names === null) {
      const names: NameIndex = { byNumber: new Map(), byKey: new Map() };
      for (const d of this.all()) addNames(names, d);
      this.names = names;
    }
    return this.names;
  }

  /**
   * Resolve `raw`. `fromCorpusPath` is the corpus path of the record that wrote
   * the reference, so `../payments/0042-x.md` is read relative to it.
   */
  resolve(raw: string, fromCorpusPath?: string): ResolveResult {
    const ref = parseRef(raw);
    if (ref.text === '') return { kind: 'not-found', suggestions: [] };
    if (ref.pathLike) {
      const byPath = this.resolvePath(ref.text, fromCorpusPath);
      if (byPath !== null) return byPath;
      // A link to a renamed file still names its number or slug.
      const id = identityFromFileName(path.posix.basename(ref.text));
      const byId =
        id.number !== null ? outcome(this.byNumber.get(id.number)) : outcome(this.byKey.get(refKey(id.slug)));
      if (byId !== null) return byId;
    }
    if (ref.number !== null) {
      const byNumber = outcome(this.byNumber.get(ref.number));
      if (byNumber !== null) return byNumber;
    }
    const byKey = outcome(this.byKey.get(refKey(ref.text)));
    if (byKey !== null) return byKey;
    if (ref.label !== null) {
      const label = parseRef(ref.label);
      const n = identityFromTitle(ref.label).number ?? label.number ?? label.prefixedNumber;
      const byLabel = n !== null ? outcome(this.byNumber.get(n)) : outcome(this.byKey.get(refKey(ref.label)));
      if (byLabel !== null) return byLabel;
    }
    if (ref.prefixedNumber !== null) {
      const byPrefixed = outcome(this.byNumber.get(ref.prefixedNumber));
      if (byPrefixed !== null) return byPrefixed;
    }
    return { kind: 'not-found', suggestions: this.suggest(ref.text) };
  }

  private resolvePath(text: string, fromCorpusPath: string | undefined): ResolveResult | null {
    // Tried in order, each built only when the one before missed (a sibling link, the usual case, hits first);
    // posix.join normalizes what it joins.
    if (fromCorpusPath !== undefined && !text.startsWith('/')) {
      const sibling = this.byPathOf(siblingPath(fromCorpusPath, text));
      if (sibling !== null) return sibling;
    }
    const clean = text.replace(/^\/+/, '');
    const rooted = this.byPathOf(path.posix.normalize(clean));
    if (rooted !== null || this.corpusPrefix === '') return rooted;
    return this.byPathOf(path.posix.join(this.corpusPrefix, clean));
  }

  private byPathOf(normalized: string): ResolveResult | null {
    return outcome(this.byPath.get(stripMarkdownExt(normalized)));
  }

  /**
   * Closest decisions: for a number, the nearest numbers; otherwise by edit
   * distance on slug, title and id, with substring hits counting as close.
   */
  suggest(text: string): Decision[] {
    const number = parseRef(text).number;
    const scored: Array<{ d: Decision; score: number }> = [];
    if (number !== null) {
      for (const d of this.all())
        if (d.number !== null) scored.push({ d, score: Math.abs(d.number - number) });
    } else {
      const key = refKey(text);
      const max = Math.max(2, Math.floor(key.length / 3));
      for (const d of this.all()) {
        let best = max + 1;
        for (const candidate of [refKey(d.slug), refKey(d.title), refKey(d.id)]) {
          if (key.length >= 3 && candidate.includes(key)) best = Math.min(best, 0.5);
          else best = Math.min(best, boundedDistance(key, candidate, max));
        }
        if (best <= max) scored.push({ d, score: best });
      }
    }
    scored.sort((a, b) => a.score - b.score || (a.d.path < b.d.path ? -1 : a.d.path > b.d.path ? 1 : 0));
    return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.d);
  }
}
