/**
 * requireWithCodeCache (src/app/code-cache.ts) in real processes, since the
 * cache is written when a process exits: a first run misses and writes a
 * 0600 file, the next uses it and adds to it once, and each use (a command)
 * has a file of its own; a changed bundle, a truncated file, a foreign
 * header and bytes V8 refuses are each ignored (the module still runs, with
 * the same answers) and replaced; a cache folder that cannot be made is no
 * failure. Runs against dist (npm test builds first).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const LOADER = path.join(REPO_ROOT, 'dist/app/code-cache.js');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-code-cache-'));
  made.push(dir);
  return dir;
}

// A module that uses what a bundle uses: require, __filename, a lazily required builtin.
const MODULE = `'use strict';
const os = require('node:os');
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
module.exports = {
  answer: () => fib(20),
  where: __filename,
  eol: os.EOL.length,
  sep: async () => Promise.resolve().then(() => require('node:path').sep),
};
`;

interface Outcome {
  readonly cache: string;
  readonly answer: number;
  readonly where: string;
  readonly eol: number;
  readonly sep: string;
}

function load(file: string, cacheDir: string | null, use = 'first'): Outcome {
  const script = `
    const { requireWithCodeCache } = await import(${JSON.stringify(pathToFileURL(LOADER).href)});
    const r = requireWithCodeCache(${JSON.stringify(file)}, ${cacheDir === null ? 'undefined' : JSON.stringify(cacheDir)}, ${JSON.stringify(use)});
    const m = r.exports;
    process.stdout.write(JSON.stringify({ cache: r.cache, answer: m.answer(), where: m.where, eol: m.eol, sep: await m.sep() }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Outcome;
}

/** The one file the cache folder holds after a run (its name is the bundle's, with a hash of its path). */
function cacheNameOf(file: string): string {
  const dir = tempDir();
  load(file, dir);
  const [name] = fs.readdirSync(dir);
  expect(name).toMatch(/^code-bundle-[0-9a-f]{8}-first\.bin$/);
  return name as string;
}

function setUp(): { file: string; cacheDir: string; cacheFile: string } {
  const dir = tempDir();
  const file = path.join(dir, 'bundle.cjs');
  fs.writeFileSync(file, MODULE);
  const cacheDir = path.join(dir, 'state', 'cache');
  return { file, cacheDir, cacheFile: path.join(cacheDir, cacheNameOf(file)) };
}

describe.skipIf(!fs.existsSync(LOADER))('requireWithCodeCache', () => {
  it('misses and writes a private cache, then runs from it with the same answers', () => {
    const { file, cacheDir, cacheFile } = setUp();
    const first = load(file, cacheDir);
    expect(first).toEqual({ cache: 'miss', answer: 6765, where: file, eol: 1, sep: '/' });
    expect((fs.statSync(cacheFile).mode & 0o777).toString(8)).toBe('600');
    expect((fs.statSync(cacheDir).mode & 0o777).toString(8)).toBe('700');
    expect(load(file, cacheDir)).toEqual({ ...first, cache: 'hit' });
    // From the third run on (the first two record what they compiled), a hit leaves the file as it was.
    const written = fs.readFileSync(cacheFile);
    expect(load(file, cacheDir)).toEqual({ ...first, cache: 'hit' });
    expect(fs.readFileSync(cacheFile).equals(written)).toBe(true);
    expect(fs.readdirSync(cacheDir)).toEqual([path.basename(cacheFile)]);
  });

  it('keeps a file per use, each adding what its first two runs compiled, then left alone', () => {
    const { file, cacheDir } = setUp();
    const fileOf = (use: string) =>
      path.join(cacheDir, cacheNameOf(file).replace(/-first\.bin$/, `-${use}.bin`));
    const header = (use: string) => {
      const raw = fs.readFileSync(fileOf(use));
      return JSON.parse(raw.toString('utf8', 4, 4 + raw.readUInt32LE(0))) as { covers: string[] };
    };
    expect(load(file, cacheDir, 'search').cache).toBe('miss');
    expect(header('search').covers).toEqual(['search']);
    // The second run of a use (the one that finds the other caches full) adds what it compiled.
    expect(load(file, cacheDir, 'search').cache).toBe('hit');
    expect(header('search').covers).toEqual(['search', 'search']);
    const search = fs.readFileSync(fileOf('search'));
    expect(load(file, cacheDir, 'search').cache).toBe('hit');
    expect(fs.readFileSync(fileOf('search')).equals(search)).toBe(true);
    // Another use starts a file of its own and leaves the first as it was.
    expect(load(file, cacheDir, 'check').cache).toBe('miss');
    expect(load(file, cacheDir, 'check').cache).toBe('hit');
    expect(header('check').covers).toEqual(['check', 'check']);
    const check = fs.readFileSync(fileOf('check'));
    for (const use of ['check', 'search']) expect(load(file, cacheDir, use).cache).toBe('hit');
    expect(fs.readFileSync(fileOf('search')).equals(search)).toBe(true);
    expect(fs.readFileSync(fileOf('check')).equals(check)).toBe(true);
  });

  it('keeps one cache per bundle path, so two installs do not replace each other', () => {
    const { file, cacheDir } = setUp();
    const other = path.join(tempDir(), 'bundle.cjs');
    fs.writeFileSync(other, MODULE);
    load(file, cacheDir);
    load(other, cacheDir);
    expect(fs.readdirSync(cacheDir)).toHaveLength(2);
    expect(load(file, cacheDir).cache).toBe('hit');
    expect(load(other, cacheDir)).toMatchObject({ cache: 'hit', where: other });
  });

  it('compiles plainly and writes nothing without a cache folder', () => {
    const { file, cacheDir } = setUp();
    expect(load(file, null).cache).toBe('off');
    expect(fs.existsSync(cacheDir)).toBe(false);
  });

  it('ignores a cache made for another build of the bundle, and replaces it', () => {
    const { file, cacheDir, cacheFile } = setUp();
    load(file, cacheDir);
    const before = fs.readFileSync(cacheFile);
    fs.writeFileSync(file, MODULE.replace('fib(20)', 'fib(21)'));
    expect(load(file, cacheDir)).toMatchObject({ cache: 'miss', answer: 10946 });
    expect(fs.readFileSync(cacheFile).equals(before)).toBe(false);
    expect(load(file, cacheDir)).toMatchObject({ cache: 'hit', answer: 10946 });
  });

  it('ignores truncated, foreign and refused files, runs the module, and replaces them', () => {
    const { file, cacheDir, cacheFile } = setUp();
    load(file, cacheDir);
    const good = fs.readFileSync(cacheFile);
    const keyLength = good.readUInt32LE(0);
    const header = good.subarray(0, 4 + keyLength);
    const broken: Array<[string, Buffer, string]> = [
      ['empty', Buffer.alloc(0), 'miss'],
      ['three bytes', Buffer.from([1, 2, 3]), 'miss'],
      ['a header longer than the file', Buffer.from([0xff, 0xff, 0xff, 0x7f, 65]), 'miss'],
      ['the header alone', header, 'miss'],
      [
        'another key',
        Buffer.concat([
          good.subarray(0, 4),
          Buffer.from('x'.repeat(keyLength)),
          good.subarray(4 + keyLength),
        ]),
        'miss',
      ],
      ['garbage for bytecode', Buffer.concat([header, Buffer.alloc(4096, 0x5a)]), 'rejected'],
      ['bytecode cut short', good.subarray(0, 4 + keyLength + 64), 'rejected'],
    ];
    for (const [what, bytes, outcome] of broken) {
      fs.writeFileSync(cacheFile, bytes);
      expect(load(file, cacheDir), what).toEqual({
        cache: outcome,
        answer: 6765,
        where: file,
        eol: 1,
        sep: '/',
      });
      expect(load(file, cacheDir).cache, `${what}, then`).toBe('hit');
    }
  });

  it('runs the module when the cache folder cannot be made', () => {
    const { file, cacheDir } = setUp();
    fs.mkdirSync(path.dirname(cacheDir), { recursive: true });
    fs.writeFileSync(cacheDir, 'a file where the folder would be');
    expect(load(file, cacheDir)).toMatchObject({ cache: 'miss', answer: 6765 });
    expect(load(file, cacheDir)).toMatchObject({ cache: 'miss', answer: 6765 });
    expect(fs.readdirSync(path.dirname(cacheDir))).toEqual(['cache']);
  });
});
