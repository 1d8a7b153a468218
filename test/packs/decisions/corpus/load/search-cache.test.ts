/**
 * The one-shot search's postings cache (search-cache.ts): a deferred index
 * that finds its stored twin answers exactly as one that tokenized, a
 * stored index is used only for exactly the documents it was built from,
 * and a corrupt, foreign or inconsistent file is ignored and replaced.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Corpus, loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import type { ParsedCacheOptions } from '../../../../../src/packs/decisions/corpus/load/parsed-cache.js';
import { SearchPostingsCache } from '../../../../../src/packs/decisions/corpus/load/search-cache.js';
import { copyMixed, SEARCH_QUERIES, searchAnswers, tempDir } from '../helpers.js';

function answers(corpus: Corpus) {
  return searchAnswers(corpus);
}

/** Where a file's parts are, and which term's postings hold a byte (its doc ids, or its frequencies after them). */
function layout(file: Buffer) {
  const headerEnd = 4 + file.readUInt32LE(0);
  const header = JSON.parse(file.toString('utf8', 4, headerEnd));
  const termsAt = headerEnd + header.signatureBytes;
  const dictTerms = file.toString('utf8', termsAt, termsAt + header.termsBytes).split('\0');
  const sectionsAt = (termsAt + header.termsBytes + 3) & ~3;
  const int32s = (at: number, n: number) => Array.from({ length: n }, (_, i) => file.readInt32LE(at + 4 * i));
  const starts = int32s(sectionsAt, header.terms + 1);
  const byteStarts = int32s(sectionsAt + 4 * (header.terms + 1), header.terms + 1);
  const bytesAt = file.length - header.bytes - header.postings;
  const tfsAt = file.length - header.postings;
  const owner = (at: number): string => {
    const [bounds, offset] = at < tfsAt ? [byteStarts, at - bytesAt] : [starts, at - tfsAt];
    const t = bounds.findIndex((start, i) => start <= offset && offset < (bounds[i + 1] ?? -1));
    return dictTerms[t] as string;
  };
  return { dictTerms, starts, byteStarts, bytesAt, tfsAt, owner };
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function setup() {
  const mixed = copyMixed();
  const state = tempDir('moor-search-cache-');
  cleanups.push(mixed.cleanup, state.cleanup);
  const options: ParsedCacheOptions = { dir: path.join(state.dir, 'cache'), build: 'test-build' };
  const file = new SearchPostingsCache(options, fs.realpathSync(mixed.corpus)).file;
  // null: no cache at all (undefined would take the default).
  const load = (parsedCache: ParsedCacheOptions | null = options) => {
    const corpus = loadCorpus({
      workspaceRoot: mixed.root,
      corpusDir: mixed.corpus,
      searchIndex: 'deferred',
      parsedCache: parsedCache ?? undefined,
    });
    cleanups.push(() => corpus.close());
    return corpus;
  };
  return { ...mixed, options, file, load };
}

describe('the search postings cache', () => {
  it('answers every query as a tokenized index does, when it writes the file and when it reads it', () => {
    const s = setup();
    const baseline = answers(s.load(null));
    expect(fs.existsSync(s.file)).toBe(false);
    expect(answers(s.load())).toEqual(baseline);
    expect(fs.existsSync(s.file)).toBe(true);
    expect((fs.statSync(s.file).mode & 0o777).toString(8)).toBe('600');
    const written = fs.readFileSync(s.file);
    // The second load's search takes the stored index (read gives it back) and answers the same.
    const read = vi.spyOn(SearchPostingsCache.prototype, 'read');
    cleanups.push(() => read.mockRestore());
    expect(answers(s.load())).toEqual(baseline);
    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.results[0]?.value).toBeDefined();
    // Nothing to rewrite after a hit.
    expect(fs.readFileSync(s.file).equals(written)).toBe(true);
  });

  it('is not used once a record changed, and is replaced by the index of the corpus as it is', () => {
    const s = setup();
    const stale = answers(s.load());
    const before = fs.readFileSync(s.file);
    const record = fs.readdirSync(s.corpus).find((name) => name.endsWith('.md')) as string;
    fs.appendFileSync(path.join(s.corpus, record), '\nWe also chose zanzibarite for storage.\n');
    const fresh = answers(s.load(null));
    expect(fresh).not.toEqual(stale);
    expect(answers(s.load())).toEqual(fresh);
    expect(fs.readFileSync(s.file).equals(before)).toBe(false);
    expect(s.load().search('zanzibarite').total).toBe(1);
  });

  it('ignores a truncated, corrupted, foreign or garbage file and writes a good one in its place', () => {
    const s = setup();
    const baseline = answers(s.load(null));
    answers(s.load());
    const good = fs.readFileSync(s.file);
    const headerEnd = 4 + good.readUInt32LE(0);
    const header = JSON.parse(good.toString('utf8', 4, headerEnd));
    const withHeader = (changes: Record<string, unknown>) => {
      const json = Buffer.from(JSON.stringify({ ...header, ...changes }));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(json.length);
      // Same padding as the writer: sections start at a multiple of 4.
      const pad = Buffer.alloc(((4 + json.length + 3) & ~3) - 4 - json.length);
      return Buffer.concat([length, json, pad, good.subarray((headerEnd + 3) & ~3)]);
    };
    const flip = (at: number) => {
      const copy = Buffer.from(good);
      copy[at] = (copy[at] as number) ^ 0x01;
      return copy;
    };
    // One bit anywhere in the signature, the terms or the checked sections (20 places spread over
    // them, their last byte too); the padding before the sections holds nothing. The postings
    // after them are verified term by term (the next test).
    const paddingStart = headerEnd + header.signatureBytes + header.termsBytes;
    const sectionsStart = (paddingStart + 3) & ~3;
    const checkedEnd = good.length - header.bytes - header.postings;
    const flips = Array.from({ length: 20 }, (_, i) =>
      Math.round(headerEnd + ((checkedEnd - 1 - headerEnd) * i) / 19),
    )
      .map((at) => (at >= paddingStart && at < sectionsStart ? sectionsStart : at))
      // The first and last byte of the terms, whatever the spread hits.
      .concat([headerEnd + header.signatureBytes, paddingStart - 1]);
    const broken: Array<[string, Buffer]> = [
      ['truncated', good.subarray(0, good.length - 7)],
      ...flips.map((at): [string, Buffer] => [`a flipped bit at byte ${at} of ${good.length}`, flip(at)]),
      ['a signature running past the end', withHeader({ signatureBytes: good.length })],
      ['a signature one byte short', withHeader({ signatureBytes: header.signatureBytes - 1 })],
      ['another build', withHeader({ build: 'another-build' })],
      ['another folder', withHeader({ corpusDir: '/somewhere/else' })],
      ['another format', withHeader({ format: 1 })],
      ['a dictionary of the wrong size', withHeader({ terms: header.terms - 1 })],
      ['a term list one byte short', withHeader({ termsBytes: header.termsBytes - 1 })],
      ['a hash table of another size', withHeader({ tableSize: header.tableSize * 2 })],
      ['garbage', Buffer.from('\u0000\u0001 not a cache')],
      ['empty', Buffer.alloc(0)],
      ['a header past the end', Buffer.from([0xff, 0xff, 0xff, 0x7f, 1, 2, 3])],
    ];
    for (const [what, bytes] of broken) {
      fs.writeFileSync(s.file, bytes);
      expect(answers(s.load()), what).toEqual(baseline);
      expect(fs.readFileSync(s.file).equals(good), what).toBe(true);
    }
  });

  it('finds a damaged term when a search first reads it, answers from the records and replaces the file', () => {
    const s = setup();
    const queries = ['postgresql', 'kafka', 'storage', 'typescript', 'events'];
    const baseline = searchAnswers(s.load(null), queries);
    searchAnswers(s.load(), queries);
    const good = fs.readFileSync(s.file);
    const { dictTerms, starts, byteStarts, bytesAt, tfsAt, owner } = layout(good);
    for (const term of queries) {
      const t = dictTerms.indexOf(term);
      expect(t, term).toBeGreaterThanOrEqual(0);
      // The term's first doc-id byte and its last frequency.
      for (const at of [bytesAt + (byteStarts[t] as number), tfsAt + (starts[t + 1] as number) - 1]) {
        expect(owner(at)).toBe(term);
        const damaged = Buffer.from(good);
        damaged[at] = (damaged[at] as number) ^ 0x01;
        fs.writeFileSync(s.file, damaged);
        const corpus = s.load();
        // A search that reads other terms only answers from the file and leaves it as it is.
        const other = queries.find((q) => q !== term && !q.includes(term) && !term.includes(q)) as string;
        expect(searchAnswers(corpus, [other]), `${term} at ${at}`).toEqual([
          baseline[queries.indexOf(other)],
        ]);
        expect(fs.readFileSync(s.file).equals(damaged)).toBe(true);
        // The damaged term's own search finds it, answers as a tokenized index does, and rewrites the file.
        expect(searchAnswers(corpus, queries), `${term} at ${at}`).toEqual(baseline);
        expect(fs.readFileSync(s.file).equals(good), `${term} at ${at}`).toBe(true);
      }
    }
  });

  it('verifies every stored term before a change is indexed, and builds the index again if one is damaged', () => {
    const s = setup();
    searchAnswers(s.load());
    const good = fs.readFileSync(s.file);
    const damaged = Buffer.from(good);
    // The last frequency of the last term, which a search for "kafka" does not read.
    damaged[good.length - 1] = (damaged[good.length - 1] as number) ^ 0x01;
    const term = layout(good).owner(good.length - 1);
    expect(term).not.toMatch(/kafka/);
    fs.writeFileSync(s.file, damaged);
    const corpus = s.load();
    expect(corpus.search('kafka').total).toBeGreaterThan(0);
    expect(fs.readFileSync(s.file).equals(damaged)).toBe(true);
    const record = fs.readdirSync(s.corpus).find((name) => name.endsWith('.md')) as string;
    fs.appendFileSync(path.join(s.corpus, record), '\nWe also chose zanzibarite for storage.\n');
    corpus.refresh();
    const queries = [...SEARCH_QUERIES, term];
    expect(searchAnswers(corpus, queries)).toEqual(searchAnswers(s.load(null), queries));
    expect(corpus.search('zanzibarite').total).toBe(1);
  });
});
