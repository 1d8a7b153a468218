/**
 * Tokenizer: lowercase runs of letters and digits. ASCII goes through a
 * charCode loop that hashes as it scans (see TermDict); anything else takes a
 * slower Unicode-aware path, which real corpora need only for the odd name.
 */
import { FNV_OFFSET, FNV_PRIME, type TermDict } from './term-dict.js';

/** Longer runs are data (hashes, base64), not words. */
export const MAX_TOKEN_LENGTH = 64;

const WORD = /^[\p{L}\p{N}\p{M}]$/u;
/** Per BMP code unit: 0 unknown, 1 word character, 2 not. */
const wordCache = new Uint8Array(65536);

function isUnicodeWord(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) return WORD.test(String.fromCodePoint(text.codePointAt(i) as number));
  let v = wordCache[c] as number;
  if (v === 0) {
    v = WORD.test(String.fromCharCode(c)) ? 1 : 2;
    wordCache[c] = v;
  }
  return v === 1;
}

/** ASCII letters and digits → their lowercase code; everything else → 0. */
const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) LOWER[c] = c;
  else if (c >= 65 && c <= 90) LOWER[c] = c | 32;
}

/**
 * Per UTF-16 code unit, for the counting loop: 0 for an ASCII separator, the
 * lowercase code of an ASCII letter or digit, NON_ASCII for anything else
 * (decided by the general path). One probe instead of a range test and a probe.
 */
const NON_ASCII = 255;
const CLASS = new Uint8Array(65536).fill(NON_ASCII);
CLASS.set(LOWER);

export class Tokenizer {
  /** Term ids of the last `run`; valid up to the count it returned. */
  ids = new Int32Array(4096);
  /** The token found by the last `next` call: text[start, end). */
  start = 0;
  end = 0;
  private h1 = 0;
  private h2 = 0;
  private ascii = true;

  constructor(private readonly dict: TermDict) {}

  /**
   * Advance to the next token at or after `i` and before `to`; false when
   * there is none. Sets `start`, `end` and the token's two hashes.
   */
  next(text: string, i: number, to: number): boolean {
    while (i < to) {
      const c = text.charCodeAt(i);
      if (c < 128 ? LOWER[c] !== 0 : isUnicodeWord(text, i)) break;
      i++;
    }
    if (i >= to) return false;
    this.start = i;
    let a = FNV_OFFSET;
    let b = 0;
    let ascii = true;
    while (i < to) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        const l = LOWER[c] as number;
        if (l === 0) break;
        a = Math.imul(a ^ l, FNV_PRIME);
        b = (Math.imul(b, 31) + l) | 0;
        i++;
      } else if (isUnicodeWord(text, i)) {
        ascii = false;
        i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
      } else {
        break;
      }
    }
    this.end = i;
    this.h1 = a;
    this.h2 = b;
    this.ascii = ascii;
    return true;
  }

  /** Term id of the token `next` just found; -1 when unknown and `add` is false, or too long. */
  termId(text: string, add: boolean): number {
    const length = this.end - this.start;
    if (length > MAX_TOKEN_LENGTH) return -1;
    if (this.ascii) {
      const id = this.dict.find(this.h1, this.h2, length);
      if (id >= 0 || !add) return id;
      return this.dict.insert(this.h1, this.h2, text.slice(this.start, this.end).toLowerCase());
    }
    // Non-ASCII tokens are rare: slice, lowercase, hash the string.
    const term = text.slice(this.start, this.end).toLowerCase();
    return add ? this.dict.intern(term) : this.dict.lookup(term);
  }

  /**
   * Tokenize text[from, to) into `ids`. With `add` false unknown terms are
   * skipped (queries, and removals of documents that were indexed earlier).
   */
  run(text: string, from: number, to: number, add: boolean): number {
    let n = 0;
    for (let i = from; this.next(text, i, to); i = this.end) {
      const id = this.termId(text, add);
      if (id < 0) continue;
      if (n === this.ids.length) {
        const grown = new Int32Array(n * 2);
        grown.set(this.ids);
        this.ids = grown;
      }
      this.ids[n++] = id;
    }
    return n;
  }
}

/**
 * Per-document term counts in reused typed arrays (indexed by term id), so
 * indexing a document allocates nothing. `distinct` terms are listed in
 * `touched`; call `reset` once they have been read.
 */
export class TermCounter {
  counts = new Uint32Array(4096);
  touched = new Int32Array(4096);
  distinct = 0;

  constructor(
    private readonly tok: Tokenizer,
    private readonly dict: TermDict,
  ) {}

  /**
   * Count the tokens of text[from, to), each adding `weight`; returns how many
   * tokens there were. This is the indexing hot loop (every character of the
   * corpus passes through it), so the ASCII case of `Tokenizer.next` and
   * `termId` is written out inline with one table probe per character
   * (`CLASS`); a token with a non-ASCII character is handed to the general
   * path.
   */
  count(text: string, from: number, to: number, weight: number, add: boolean): number {
    const dict = this.dict;
    const cls = CLASS;
    let n = 0;
    let i = from;
    while (i < to) {
      let l = cls[text.charCodeAt(i)] as number;
      if (l === 0) {
        i++;
        continue;
      }
      const start = i;
      let a = FNV_OFFSET;
      let b = 0;
      while (l !== 0 && l !== NON_ASCII) {
        a = Math.imul(a ^ l, FNV_PRIME);
        b = (Math.imul(b, 31) + l) | 0;
        if (++i === to) {
          l = 0;
          break;
        }
        l = cls[text.charCodeAt(i)] as number;
      }
      let id: number;
      if (l === NON_ASCII) {
        // Not pure ASCII: let the general tokenizer take the whole token (or skip a lone symbol).
        if (!this.tok.next(text, start, to)) break;
        if (this.tok.start !== start) {
          i = this.tok.start;
          continue;
        }
        i = this.tok.end;
        id = this.tok.termId(text, add);
      } else {
        const length = i - start;
        if (length > MAX_TOKEN_LENGTH) continue;
        id = dict.find(a, b, length);
        if (id < 0 && add) id = dict.insert(a, b, text.slice(start, i).toLowerCase());
      }
      if (id >= 0) {
        n++;
        this.tally(id, weight);
      }
    }
    return n;
  }

  /** Add `weight` to a term's count, listing it in `touched` the first time. */
  private tally(id: number, weight: number): void {
    if (id >= this.counts.length) this.grow(this.dict.size);
    const prev = this.counts[id] as number;
    if (prev === 0) {
      if (this.distinct === this.touched.length) this.grow(0);
      this.touched[this.distinct++] = id;
    }
    this.counts[id] = prev + weight;
  }

  reset(): void {
    for (let k = 0; k < this.distinct; k++) this.counts[this.touched[k] as number] = 0;
    this.distinct = 0;
  }

  private grow(terms: number): void {
    if (terms > this.counts.length) {
      const counts = new Uint32Array(Math.max(terms, this.counts.length * 2));
      counts.set(this.counts);
      this.counts = counts;
    }
    if (this.distinct === this.touched.length) {
      const touched = new Int32Array(this.touched.length * 2);
      touched.set(this.touched);
      this.touched = touched;
    }
  }
}

/** Tokens of a short string (a query) as lowercase strings, without a dictionary. */
export function tokenizeToStrings(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (!isUnicodeWord(text, i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isUnicodeWord(text, i))
      i += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff ? 2 : 1;
    if (i - start <= MAX_TOKEN_LENGTH) out.push(text.slice(start, i).toLowerCase());
  }
  return out;
}
