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
import { copyMixed, searchAnswers, tempDir } from '../helpers.js';

function answers(corpus: Corpus) {
  return searchAnswers(corpus);
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
    // One bit anywhere in the signature, the terms or the sections (20 places spread over them, the
    // last byte too); the padding before the sections holds nothing.
    const paddingStart = headerEnd + header.signatureBytes + header.termsBytes;
    const sectionsStart = (paddingStart + 3) & ~3;
    const flips = Array.from({ length: 20 }, (_, i) =>
      Math.round(headerEnd + ((good.length - 1 - headerEnd) * i) / 19),
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
});
