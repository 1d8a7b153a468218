/**
 * Loads a CommonJS bundle with a V8 code cache, for the one-shot CLI.
 *
 * A git hook runs `moor decisions …` on every commit, and on Node 20 a third
 * of such a run went to compiling the app's bundle (Node 22's
 * module.enableCompileCache is not there to ask). vm.Script accepts the
 * bytecode V8 produced for the same source on an earlier run; the cache is
 * written when the process exits, so it also holds the functions that run
 * compiled, not only the top level.
 *
 * The cache is a cache: one file per bundle path and use (a command) in the
 * state dir's cache/, its header naming the bundle (path, size, mtime), Node,
 * V8 and the architecture. A missing, foreign, truncated or rejected file is
 * ignored and replaced when the process exits; a failure to write is
 * dropped. V8 checks what it is given against the source and its own version
 * before using it.
 *
 * The bundle must not use import(): on Node 20 a vm.Script gets a loader for
 * it only by an experimental option that prints a warning on every run
 * (scripts/bundle.mjs turns the bundle's import() of builtins into require).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const MAGIC = 'moor-code-cache-1';

interface LoadedModule {
  exports: unknown;
}

/** What became of the cache: used, absent or foreign (replaced at exit), refused by V8 (replaced), or not asked for. */
export type CodeCacheOutcome = 'hit' | 'miss' | 'rejected' | 'off';

export interface CachedRequire {
  readonly exports: unknown;
  readonly cache: CodeCacheOutcome;
}

/**
 * One file per installed bundle, so two installs (a global moor and a
 * project's) do not replace each other's cache on every run, and per use: a
 * command deserializes only the bytecode it runs (a search, the bytecode of
 * every command: about 560 KB against 460, and 1.5-3 ms a run). The name is
 * FNV-1a of the path: it only has to spread, the header is what is checked,
 * and node:crypto costs a run milliseconds to load.
 */
function cacheName(file: string, use: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193) >>> 0;
  const slug =
    use
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'run';
  return `code-${path.basename(file, path.extname(file))}-${hash.toString(16).padStart(8, '0')}-${slug}.bin`;
}

/** The key a cache file must carry: anything that changes the bytecode V8 would make. */
function cacheKey(file: string, stat: fs.Stats): string {
  return [MAGIC, process.version, process.versions.v8, process.arch, file, stat.size, stat.mtimeMs].join(
    '\n',
  );
}

interface CacheFile {
  /** The runs of its use (a CLI command) that added what they compiled to it, one entry a run. */
  readonly covers: readonly string[];
  readonly data: Buffer;
}

/** The cache, when its header names this bundle and this V8; else undefined. */
function readCache(cacheFile: string, key: string): CacheFile | undefined {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (raw.length < 4) return undefined;
  const headerLength = raw.readUInt32LE(0);
  if (headerLength > raw.length - 4) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(raw.toString('utf8', 4, 4 + headerLength));
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) return undefined;
  const { key: written, covers } = header as { key?: unknown; covers?: unknown };
  if (written !== key || !Array.isArray(covers) || !covers.every((c) => typeof c === 'string'))
    return undefined;
  const data = raw.subarray(4 + headerLength);
  return data.length > 0 ? { covers, data } : undefined;
}

function writeCache(cacheFile: string, key: string, covers: readonly string[], data: Buffer): void {
  const headerBytes = Buffer.from(JSON.stringify({ key, covers }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length, 0);
  const staged = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(staged, Buffer.concat([length, headerBytes, data]), { mode: 0o600 });
    fs.renameSync(staged, cacheFile);
  } catch {
    // A cache that cannot be written costs the next run its compile, nothing more.
    try {
      fs.rmSync(staged, { force: true });
    } catch {
      // nothing was staged: the folder is not there to hold it
    }
  }
}

/**
 * How many runs of each use rewrite the cache. The first run of a command
 * usually finds the state dir's other caches empty and takes the path that
 * fills them (tokenizing, writing); every later run takes the path that reads
 * them, whose functions the first run never compiled. The second run adds
 * those, so a steady run compiles nothing.
 */
const RECORDED_RUNS = 2;

/**
 * Runs `file` (a CommonJS module) as `require` would, with its bytecode from
 * `cacheDir` when a fitting cache is there; with no `cacheDir`, compiles it
 * plainly. `use` names what this run does (a command), whose cache file it
 * reads: the first RECORDED_RUNS runs of each use rewrite it at exit, so it
 * holds what that use compiled (V8's cache of a script is everything
 * compiled in it, from the cache or since).
 */
export function requireWithCodeCache(file: string, cacheDir: string | undefined, use: string): CachedRequire {
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const key = cacheKey(file, stat);
  const cacheFile = cacheDir === undefined ? undefined : path.join(cacheDir, cacheName(file, use));
  const cached = cacheFile === undefined ? undefined : readCache(cacheFile, key);
  const cachedData = cached?.data;
  // The same wrapper require uses, on one line so the bundle's columns stay its own.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const cache: CodeCacheOutcome =
    cacheFile === undefined
      ? 'off'
      : cachedData === undefined
        ? 'miss'
        : script.cachedDataRejected
          ? 'rejected'
          : 'hit';
  const recorded = cache === 'hit' ? (cached?.covers.filter((c) => c === use).length ?? 0) : 0;
  if (cacheFile !== undefined && recorded < RECORDED_RUNS) {
    const covers = cache === 'hit' ? [...(cached?.covers ?? []), use] : [use];
    process.once('exit', () => writeCache(cacheFile, key, covers, script.createCachedData()));
  }
  const loaded: LoadedModule = { exports: {} };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: LoadedModule,
    filename: string,
    dirname: string,
  ) => void;
  wrapper(loaded.exports, createRequire(file), loaded, file, path.dirname(file));
  return { exports: loaded.exports, cache };
}
