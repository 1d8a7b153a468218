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
 * Layout: a 4-byte little-endian header length, the header (JSON: format,
 * build, corpus folder, signature, section sizes, a 64-bit checksum of the sections,
 * the dictionary's terms), padding to 4 bytes, then each term's first
 * posting (int32) and first byte (int32), each document's weighted length
 * (float32), the dictionary's hashes and lengths (3 int32 per term) and hash
 * table (int32 slots), the delta-encoded document ids and the term
 * frequencies (uint8). The 4-byte sections come first, so each is aligned.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Hash64, nameHash } from '../lazy-crypto.js';
import type { IndexSnapshot } from '../search/search-index.js';
import { asciiJson, decodeText } from './ascii-json.js';
import type { ParsedCacheOptions } from './parsed-cache.js';

const FORMAT = 4;

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

/** The signature of a bulk index: everything the tokenizer read, in order. */
export function postingsSignature(docs: readonly SignedDoc[]): string {
  // One string hashed in one loop: a loop that long is compiled early, a thousand short ones would run interpreted.
  const text = docs.map((d) => `${d.path}\0${d.version}\0${d.title}\0${d.from}\n`).join('');
  return `${docs.length}:${new Hash64().text(text).hex()}`;
}

interface Header {
  readonly format: number;
  readonly build: string;
  readonly corpusDir: string;
  readonly signature: string;
  readonly terms: number;
  readonly docs: number;
  readonly bytes: number;
  readonly postings: number;
  readonly tableSize: number;
  readonly checksum: string;
  readonly dictTerms: readonly string[];
}

type Section = Int32Array<ArrayBuffer> | Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

function sectionsOf(s: IndexSnapshot): Section[] {
  return [s.starts, s.byteStarts, s.docLens, s.dictMeta, s.dictTable, s.bytes, s.tfs];
}

function checksum(sections: readonly Section[]): string {
  const hash = new Hash64();
  for (const section of sections)
    hash.bytes(new Uint8Array(section.buffer, section.byteOffset, section.byteLength));
  return hash.hex();
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
    const sections = sectionsOf(snapshot);
    const header: Header = {
      format: FORMAT,
      build: this.options.build,
      corpusDir: this.corpusDir,
      signature,
      terms: snapshot.dictTerms.length,
      docs: snapshot.docLens.length,
      bytes: snapshot.bytes.length,
      postings: snapshot.tfs.length,
      tableSize: snapshot.dictTable.length,
      checksum: checksum(sections),
      dictTerms: snapshot.dictTerms,
    };
    const json = Buffer.from(asciiJson(header), 'latin1');
    const start = align4(4 + json.length);
    const out = Buffer.alloc(start + sections.reduce((n, section) => n + section.byteLength, 0));
    out.writeUInt32LE(json.length, 0);
    json.copy(out, 4);
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
    h.signature !== signature ||
    !isCount(h.terms) ||
    !isCount(h.docs) ||
    !isCount(h.bytes) ||
    !isCount(h.postings) ||
    !isCount(h.tableSize) ||
    typeof h.checksum !== 'string' ||
    !Array.isArray(h.dictTerms) ||
    h.dictTerms.length !== h.terms ||
    !h.dictTerms.every((t) => typeof t === 'string')
  )
    return undefined;
  const { terms, docs, tableSize } = h;
  let at = align4(4 + headerLength);
  const words = 2 * (terms + 1) + docs + 3 * terms + tableSize;
  if (bytes.length !== at + words * 4 + h.bytes + h.postings) return undefined;
  // Copied out: typed arrays need aligned memory of their own, and the index keeps them.
  const take = (byteLength: number): ArrayBuffer => {
    const copy = new Uint8Array(bytes.subarray(at, at + byteLength)).buffer;
    at += byteLength;
    return copy;
  };
  const snapshot: IndexSnapshot = {
    dictTerms: h.dictTerms as string[],
    starts: new Int32Array(take((terms + 1) * 4)),
    byteStarts: new Int32Array(take((terms + 1) * 4)),
    docLens: new Float32Array(take(docs * 4)),
    dictMeta: new Int32Array(take(terms * 3 * 4)),
    dictTable: new Int32Array(take(tableSize * 4)),
    bytes: new Uint8Array(take(h.bytes)),
    tfs: new Uint8Array(take(h.postings)),
  };
  if (checksum(sectionsOf(snapshot)) !== h.checksum) return undefined;
  if (!ascendsTo(snapshot.starts, h.postings) || !ascendsTo(snapshot.byteStarts, h.bytes)) return undefined;
  return snapshot.docLens.every((len) => Number.isFinite(len) && len >= 0) ? snapshot : undefined;
}

/** Starts from 0, never going back, ending at `total`. */
function ascendsTo(starts: Int32Array, total: number): boolean {
  if (starts[0] !== 0) return false;
  for (let i = 1; i < starts.length; i++) if ((starts[i] as number) < (starts[i - 1] as number)) return false;
  return starts[starts.length - 1] === total;
}
