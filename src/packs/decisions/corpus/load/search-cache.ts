/**
 * The search index's postings, kept between one-shot runs beside the parsed
 * records (parsed-cache.ts): a `moor decisions search` on an unchanged
 * corpus reads one file instead of reading and tokenizing every record.
 *
 * The file holds the committed index of one whole load, under a signature of what
 * was indexed (each record's path, text hash, title and where its indexed
 * text starts, in load order). It is used only when the documents waiting
 * to be indexed have exactly that signature and the build is the one that
 * wrote it; one edited record and the next search tokenizes the corpus and
 * writes a new file. Like the parsed records it is a cache, never a source
 * of truth: a file that is truncated, foreign, fails its checksum or is
 * inconsistent in any way (term starts out of order, sizes that do not add
 * up) is ignored and replaced. Written atomically, 0600; a write that fails
 * is dropped.
 *
 * The postings, three quarters of the file, are verified term by term as a
 * query first reads them (search.ts), against a checksum per term the
 * checked part holds: a search reads a few terms of thousands, and checking
 * all of them cost a one-shot search on 1,000 records ~2 ms. A damaged term
 * found then is treated as a damaged file: the index is built from the
 * records and the file replaced, before anything was answered from it.
 *
 * Layout: a 4-byte little-endian header length, the header (JSON: format,
 * build, corpus folder, section sizes, a 128-bit checksum of everything but
 * the postings), the signature and the dictionary's terms joined by NUL
 * (UTF-8, their lengths in the header), padding to 4 bytes, then each term's
 * first posting (int32) and first byte (int32), each document's weighted
 * length (float32), the dictionary's hashes and lengths (3 int32 per term)
 * and hash table (int32 slots), each term's postings checksum (int32), and
 * the postings: the delta-encoded document ids and the term frequencies
 * (uint8). The 4-byte sections come first, so each is aligned.
 */
import fs from 'node:fs';
import path from 'node:path';
import { nameHash } from '../lazy-crypto.js';
import { termChecksum } from '../search/postings.js';
import type { IndexSnapshot } from '../search/search-index.js';
import { asciiJson, decodeText } from './ascii-json.js';
import type { ParsedCacheOptions } from './parsed-cache.js';

const FORMAT = 6;

/** What DecisionSearch asks of a postings cache (its deferred bulk index). */
export interface PostingsCache {
  read(signature: string): IndexSnapshot | undefined;
  write(signature: string, snapshot: IndexSnapshot): void;
}

/** One indexed document, as the signature sees it. */
export interface SignedDoc {
  readonly path: string;
  readonly version: string;
  readonly title: string;
  readonly from: number;
}

/**
 * The signature of a bulk index: everything the tokenizer read, in order,
 * written out whole. The file stores it as it is and a read compares the two
 * strings, which V8 does natively: hashing it in JavaScript cost a one-shot
 * search on 1,000 records about 4 ms of code that never warmed up.
 */
export function postingsSignature(docs: readonly SignedDoc[]): string {
  return docs.map((d) => `${d.path}\0${d.version}\0${d.title}\0${d.from}\n`).join('');
}

interface Header {
  readonly format: number;
  readonly build: string;
  readonly corpusDir: string;
  /** Bytes of the signature, which follows the header. */
  readonly signatureBytes: number;
  readonly terms: number;
  readonly docs: number;
  readonly bytes: number;
  readonly postings: number;
  readonly tableSize: number;
  readonly checksum: string;
  /** Bytes of the dictionary's terms joined by NUL (no term holds one), after the signature. */
  readonly termsBytes: number;
}

type Section = Int32Array<ArrayBufferLike> | Float32Array<ArrayBufferLike> | Uint8Array<ArrayBufferLike>;

/** The sections the file's checksum covers, in file order; the postings (bytes, tfs) follow them. */
function checkedSections(s: IndexSnapshot, termSums: Int32Array): Section[] {
  return [s.starts, s.byteStarts, s.docLens, s.dictMeta, s.dictTable, termSums];
}

function termSumsOf(s: IndexSnapshot): Int32Array<ArrayBuffer> {
  const sums = new Int32Array(s.dictTerms.length);
  for (let t = 0; t < sums.length; t++) sums[t] = termChecksum(s, t);
  return sums;
}

/**
 * A checksum that catches a damaged file: FNV-1a over 32-bit words in four
 * lanes (word i feeds lane i mod 4), so a one-shot run's interpreter does
 * one multiply per word. Each step is a bijection of the lane's state, so a
 * change to any one word always changes the result. Not a guard against an
 * attacker: the file lives in the user's own 0700 state dir.
 */
function checksum(sections: readonly Section[]): string {
  const lanes = [0x811c9dc5 | 0, 0x050c5d1f | 0, 0x2b6a3c17 | 0, 0x7f4a7c15 | 0];
  for (const section of sections) {
    // Words where the view is aligned (the byte sections' tail, or an unaligned view, go byte by byte).
    const wordCount = section.byteOffset % 4 === 0 ? section.byteLength >> 2 : 0;
    const words = new Int32Array(section.buffer, section.byteOffset, wordCount);
    let [a, b, c, d] = lanes as [number, number, number, number];
    const whole = words.length & ~3;
    let i = 0;
    for (; i < whole; i += 4) {
      a = Math.imul(a ^ (words[i] as number), 0x01000193);
      b = Math.imul(b ^ (words[i + 1] as number), 0x01000193);
      c = Math.imul(c ^ (words[i + 2] as number), 0x01000193);
      d = Math.imul(d ^ (words[i + 3] as number), 0x01000193);
    }
    for (; i < words.length; i++) a = Math.imul(a ^ (words[i] as number), 0x01000193);
    const bytes = new Uint8Array(section.buffer, section.byteOffset, section.byteLength);
    for (let j = words.length * 4; j < bytes.length; j++) b = Math.imul(b ^ (bytes[j] as number), 0x01000193);
    // The section's length too, so bytes moved from one section to the next are caught.
    c = Math.imul(c ^ section.byteLength, 0x01000193);
    lanes.splice(0, 4, a, b, c, d);
  }
  return lanes.map((lane) => (lane >>> 0).toString(16).padStart(8, '0')).join('');
}

export class SearchPostingsCache implements PostingsCache {
  readonly file: string;

  constructor(
    private readonly options: ParsedCacheOptions,
    private readonly corpusDir: string,
  ) {
    const name = nameHash(corpusDir);
    this.file = path.join(options.dir, `search-${name}.bin`);
  }

  read(signature: string): IndexSnapshot | undefined {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.file);
    } catch {
      return undefined;
    }
    try {
      return decode(bytes, this.options.build, this.corpusDir, signature);
    } catch {
      // Not JSON where the header goes, or sections that do not fit: not a file this build wrote.
      return undefined;
    }
  }

  write(signature: string, snapshot: IndexSnapshot): void {
    const checked = checkedSections(snapshot, termSumsOf(snapshot));
    const sections = [...checked, snapshot.bytes, snapshot.tfs];
    const terms = Buffer.from(snapshot.dictTerms.join('\0'), 'utf8');
    const header: Header = {
      format: FORMAT,
      build: this.options.build,
      corpusDir: this.corpusDir,
      signatureBytes: Buffer.byteLength(signature),
      terms: snapshot.dictTerms.length,
      docs: snapshot.docLens.length,
      bytes: snapshot.bytes.length,
      postings: snapshot.tfs.length,
      tableSize: snapshot.dictTable.length,
      checksum: checksum([terms, ...checked]),
      termsBytes: terms.length,
    };
    const json = Buffer.from(asciiJson(header), 'latin1');
    const start = align4(4 + json.length + header.signatureBytes + header.termsBytes);
    const out = Buffer.alloc(start + sections.reduce((n, section) => n + section.byteLength, 0));
    out.writeUInt32LE(json.length, 0);
    json.copy(out, 4);
    out.write(signature, 4 + json.length, 'utf8');
    terms.copy(out, 4 + json.length + header.signatureBytes);
    let at = start;
    for (const section of sections) {
      out.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), at);
      at += section.byteLength;
    }
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(temporary, out, { mode: 0o600 });
      fs.renameSync(temporary, this.file);
    } catch {
      // A cache that cannot be written costs the next search a tokenization, nothing more.
      fs.rmSync(temporary, { force: true });
    }
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function isCount(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 0;
}

function decode(
  bytes: Buffer,
  build: string,
  corpusDir: string,
  signature: string,
): IndexSnapshot | undefined {
  if (bytes.length < 4) return undefined;
  const headerLength = bytes.readUInt32LE(0);
  if (4 + headerLength > bytes.length) return undefined;
  const h = JSON.parse(decodeText(bytes.subarray(4, 4 + headerLength))) as Partial<Header> | null;
  if (
    h === null ||
    typeof h !== 'object' ||
    h.format !== FORMAT ||
    h.build !== build ||
    h.corpusDir !== corpusDir ||
    !isCount(h.signatureBytes) ||
    !isCount(h.terms) ||
    !isCount(h.docs) ||
    !isCount(h.bytes) ||
    !isCount(h.postings) ||
    !isCount(h.tableSize) ||
    typeof h.checksum !== 'string' ||
    !isCount(h.termsBytes)
  )
    return undefined;
  const { terms, docs, tableSize } = h;
  const signatureAt = 4 + headerLength;
  const termsAt = signatureAt + h.signatureBytes;
  if (termsAt + h.termsBytes > bytes.length) return undefined;
  // Native: decoding and comparing the strings is far cheaper than hashing the signature in JavaScript.
  if (decodeText(bytes.subarray(signatureAt, termsAt)) !== signature) return undefined;
  // Copied out, so the checksum reads it by words; split natively, where a JSON array took a parse and a check of each.
  const termBytes = new Uint8Array(bytes.subarray(termsAt, termsAt + h.termsBytes));
  const dictTerms = terms === 0 ? [] : decodeText(termBytes).split('\0');
  if (dictTerms.length !== terms) return undefined;
  let at = align4(termsAt + h.termsBytes);
  const words = 2 * (terms + 1) + docs + 3 * terms + tableSize + terms;
  if (bytes.length !== at + words * 4 + h.bytes + h.postings) return undefined;
  // Copied out: typed arrays need aligned memory of their own, and the index keeps them.
  const take = (byteLength: number): ArrayBuffer => {
    const copy = new Uint8Array(bytes.subarray(at, at + byteLength)).buffer;
    at += byteLength;
    return copy;
  };
  // Byte sections need no alignment: views on the file's buffer, which the index keeps.
  const view = (byteLength: number): Uint8Array<ArrayBuffer> => {
    const part = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, byteLength);
    at += byteLength;
    return part;
  };
  const snapshot: IndexSnapshot = {
    dictTerms,
    starts: new Int32Array(take((terms + 1) * 4)),
    byteStarts: new Int32Array(take((terms + 1) * 4)),
    docLens: new Float32Array(take(docs * 4)),
    dictMeta: new Int32Array(take(terms * 3 * 4)),
    dictTable: new Int32Array(take(tableSize * 4)),
    termSums: new Int32Array(take(terms * 4)),
    bytes: view(h.bytes),
    tfs: view(h.postings),
  };
  const termSums = snapshot.termSums as Int32Array;
  if (checksum([termBytes, ...checkedSections(snapshot, termSums)]) !== h.checksum) return undefined;
  if (!ascendsTo(snapshot.starts, h.postings) || !ascendsTo(snapshot.byteStarts, h.bytes)) return undefined;
  return snapshot.docLens.every((len) => Number.isFinite(len) && len >= 0) ? snapshot : undefined;
}

/** Starts from 0, never going back, ending at `total`. */
function ascendsTo(starts: Int32Array, total: number): boolean {
  if (starts[0] !== 0) return false;
  for (let i = 1; i < starts.length; i++) if ((starts[i] as number) < (starts[i - 1] as number)) return false;
  return starts[starts.length - 1] === total;
}
