/**
 * Reference resolution: every way a person or a record can name a decision
 * (number in any spelling, id, slug, file stem, title, path relative to the
 * corpus or workspace, a Markdown link relative to the declaring file).
 */
import path from 'node:path';
import { boundedDistance } from './edit-distance.js';
import { identityFromFileName, identityFromTitle, parseRef, refKey, stripMarkdownExt } from './identity.js';
import type { Decision } from './model.js';

export type ResolveResult =
  | { readonly kind: 'found'; readonly decision: Decision }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly Decision[] }
  | { readonly kind: 'not-found'; readonly suggestions: readonly Decision[] };

const MAX_SUGGESTIONS = 5;

function push<K>(map: Map<K, Decision[]>, key: K, d: Decision): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [d]);
  else if (!list.includes(d)) list.push(d);
}

function outcome(found: readonly Decision[] | undefined): ResolveResult | null {
  if (found === undefined || found.length === 0) return null;
  if (found.length === 1) return { kind: 'found', decision: found[0] as Decision };
  return { kind: 'ambiguous', candidates: found };
}

export class RefIndex {
  private readonly byNumber = new Map<number, Decision[]>();
  private readonly byKey = new Map<string, Decision[]>();
  private readonly byPath = new Map<string, Decision[]>();

  /** `corpusPrefix`: the corpus folder relative to the workspace root, POSIX, '' when they coincide. */
  constructor(
    private readonly decisions: readonly Decision[],
    private readonly corpusPrefix: string,
  ) {
    for (const d of decisions) {
      if (d.number !== null) push(this.byNumber, d.number, d);
      for (const key of [d.id, d.slug, stripMarkdownExt(path.posix.basename(d.path)), d.title]) {
        push(this.byKey, refKey(key), d);
      }
      for (const p of [d.path, d.corpusPath]) {
        push(this.byPath, p, d);
        push(this.byPath, stripMarkdownExt(p), d);
      }
    }
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
      const n = identityFromTitle(ref.label).number ?? parseRef(ref.label).number;
      const byLabel = n !== null ? outcome(this.byNumber.get(n)) : outcome(this.byKey.get(refKey(ref.label)));
      if (byLabel !== null) return byLabel;
    }
    return { kind: 'not-found', suggestions: this.suggest(ref.text) };
  }

  private resolvePath(text: string, fromCorpusPath: string | undefined): ResolveResult | null {
    const clean = text.replace(/^\/+/, '');
    const tries: string[] = [];
    if (fromCorpusPath !== undefined && !text.startsWith('/')) {
      tries.push(path.posix.normalize(path.posix.join(path.posix.dirname(fromCorpusPath), text)));
    }
    tries.push(path.posix.normalize(clean));
    if (this.corpusPrefix !== '') tries.push(path.posix.normalize(path.posix.join(this.corpusPrefix, clean)));
    for (const t of tries) {
      const hit = outcome(this.byPath.get(t)) ?? outcome(this.byPath.get(stripMarkdownExt(t)));
      if (hit !== null) return hit;
    }
    return null;
  }

  /**
   * Closest decisions: for a number, the nearest numbers; otherwise by edit
   * distance on slug, title and id, with substring hits counting as close.
   */
  suggest(text: string): Decision[] {
    const number = parseRef(text).number;
    const scored: Array<{ d: Decision; score: number }> = [];
    if (number !== null) {
      for (const d of this.decisions)
        if (d.number !== null) scored.push({ d, score: Math.abs(d.number - number) });
    } else {
      const key = refKey(text);
      const max = Math.max(2, Math.floor(key.length / 3));
      for (const d of this.decisions) {
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
