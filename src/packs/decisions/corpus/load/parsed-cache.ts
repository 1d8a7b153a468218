/**
 * What parsing each record gave, kept between one-shot runs: a git hook's
 * `moor decisions check` on an unchanged corpus reads a stat per file and
 * this one file, instead of reading and parsing every record again.
 *
 * An entry is used only for a file whose stamp (size, mtime, inode), path,
 * navigation title and build are exactly those it was parsed with; anything
 * else is parsed as if there were no cache. The file is a cache, never a
 * source of truth: one that does not parse, has the wrong shape, or was
 * written by another build or for another folder is ignored and replaced.
 * It is written (atomically, 0600) only when the load parsed something or
 * a record went away, and a write that fails is dropped silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import { nameHash } from '../lazy-crypto.js';
import type { Problem } from '../model.js';
import { asciiJson, decodeText } from './ascii-json.js';
import type { PlainDecision } from './lazy-decision.js';
import type { RecordMemo } from './record-memo.js';

/** Where the cache files live and which build may read them (the CLI's state dir and moor's build). */
export interface ParsedCacheOptions {
  readonly dir: string;
  /** moor's version and build identity: a cache another build wrote is never read. */
  readonly build: string;
}

export interface ParsedEntry {
  readonly stamp: string;
  readonly rel: string;
  readonly nav: string | null;
  readonly decision: PlainDecision | null;
  readonly problems: readonly Problem[];
  /** Where the text the search index reads starts in the body. */
  readonly from: number;
  /** A hash of the file's text (what a refresh's announcer compares). */
  readonly version: string;
  /** What commands worked out from this parse of the file (record-memo.ts), by key. */
  readonly memo?: Readonly<Record<string, unknown>> | undefined;
}

const FORMAT = 1;

interface CacheFile {
  readonly format: number;
  readonly build: string;
  readonly corpusDir: string;
  readonly records: Record<string, ParsedEntry>;
}

export class ParsedRecordCache {
  readonly file: string;
  readonly #options: ParsedCacheOptions;
  readonly #corpusDir: string;
  readonly #stored: ReadonlyMap<string, ParsedEntry>;
  /** The entries of this load: what the next run may use. */
  readonly #seen = new Map<string, ParsedEntry>();
  /** Memos of this load's entries, by corpus path; saved with them. */
  readonly #memos = new Map<string, Record<string, unknown>>();
  /** Something parsed or memoized since the last save. */
  #unsaved = false;
  /** How many entries the file holds as last read or written. */
  #savedSize: number;
  #parsed = 0;
  #hits = 0;

  constructor(options: ParsedCacheOptions, corpusDir: string) {
    this.#options = options;
    this.#corpusDir = corpusDir;
    const name = nameHash(corpusDir);
    this.file = path.join(options.dir, `records-${name}.json`);
    this.#stored = readCache(this.file, options.build, corpusDir);
    this.#savedSize = this.#stored.size;
  }

  /** Whether the file held entries this build can use. */
  get holdsEntries(): boolean {
    return this.#stored.size > 0;
  }

  /** Records taken from the cache and records parsed, in this load (tests, the bench). */
  get stats(): { hits: number; parsed: number } {
    return { hits: this.#hits, parsed: this.#parsed };
  }

  /** The stored parse of `corpusPath`, when it was made of exactly this file. */
  lookup(corpusPath: string, stamp: string, rel: string, nav: string | undefined): ParsedEntry | undefined {
    const entry = this.#stored.get(corpusPath);
    if (entry === undefined || entry.stamp !== stamp || entry.rel !== rel || entry.nav !== (nav ?? null))
      return undefined;
    this.#hits += 1;
    this.#seen.set(corpusPath, entry);
    if (entry.memo !== undefined) this.#memos.set(corpusPath, { ...entry.memo });
    return entry;
  }

  /** A record this load parsed (its plain fields as parsed, before the corpus settles anything). */
  remember(corpusPath: string, entry: ParsedEntry): void {
    this.#parsed += 1;
    this.#unsaved = true;
    this.#seen.set(corpusPath, entry);
    this.#memos.delete(corpusPath);
  }

  /** The memo of the entry this load took or made for `corpusPath`, saved with it. */
  memo(corpusPath: string): RecordMemo {
    return {
      get: (key) => this.#memos.get(corpusPath)?.[key],
      set: (key, value) => {
        const memo = this.#memos.get(corpusPath) ?? {};
        memo[key] = value;
        this.#memos.set(corpusPath, memo);
        this.#unsaved = true;
      },
    };
  }

  /**
   * Writes the cache when this load differs from what the file holds: a
   * record parsed or gone, or a memo added since the last save.
   */
  save(): void {
    if (!this.#unsaved && this.#seen.size === this.#savedSize) return;
    this.#unsaved = false;
    this.#savedSize = this.#seen.size;
    const records: Record<string, ParsedEntry> = {};
    for (const [corpusPath, entry] of this.#seen) {
      const memo = this.#memos.get(corpusPath);
      records[corpusPath] = memo === undefined ? entry : { ...entry, memo };
    }
    const body: CacheFile = {
      format: FORMAT,
      build: this.#options.build,
      corpusDir: this.#corpusDir,
      records,
    };
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(this.#options.dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(temporary, asciiJson(body), { mode: 0o600 });
      fs.renameSync(temporary, this.file);
    } catch {
      // A cache that cannot be written costs the next run a parse, nothing more.
      fs.rmSync(temporary, { force: true });
    }
  }
}

/** The stored entries, or none when the file is missing, unreadable, foreign or malformed. */
function readCache(file: string, build: string, corpusDir: string): ReadonlyMap<string, ParsedEntry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeText(fs.readFileSync(file)));
  } catch {
    return new Map();
  }
  if (
    !isObject(parsed) ||
    parsed.format !== FORMAT ||
    parsed.build !== build ||
    parsed.corpusDir !== corpusDir
  )
    return new Map();
  const records = parsed.records;
  if (!isObject(records)) return new Map();
  const entries = new Map<string, ParsedEntry>();
  for (const corpusPath of Object.keys(records)) {
    const entry = records[corpusPath];
    // One entry of the wrong shape and the file is not one this build wrote: trust none of it.
    if (!isEntry(entry)) return new Map();
    entries.set(corpusPath, entry);
  }
  return entries;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const DECISION_STRINGS = [
  'id',
  'slug',
  'path',
  'corpusPath',
  'title',
  'status',
  'statusRaw',
  'format',
] as const;
const DECISION_LISTS = ['deciders', 'consulted', 'informed', 'tags', 'governs'] as const;
const LINK_LISTS = ['supersedes', 'supersededBy', 'amends', 'amendedBy'] as const;

// Plain loops, no callbacks: a one-shot run checks every entry in code that has not warmed up.

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

function isEntry(value: unknown): value is ParsedEntry {
  if (!isObject(value)) return false;
  if (typeof value.stamp !== 'string' || typeof value.rel !== 'string' || typeof value.version !== 'string')
    return false;
  if (!(value.nav === null || typeof value.nav === 'string')) return false;
  if (value.memo !== undefined && !isObject(value.memo)) return false;
  const problems = value.problems;
  if (!Number.isSafeInteger(value.from) || !Array.isArray(problems)) return false;
  for (let i = 0; i < problems.length; i++) {
    const p: unknown = problems[i];
    if (!isObject(p) || typeof p.path !== 'string' || typeof p.message !== 'string') return false;
  }
  const d = value.decision;
  if (d === null) return true;
  if (!isObject(d)) return false;
  for (let i = 0; i < DECISION_STRINGS.length; i++)
    if (typeof d[DECISION_STRINGS[i] as string] !== 'string') return false;
  for (let i = 0; i < DECISION_LISTS.length; i++)
    if (!isStringList(d[DECISION_LISTS[i] as string])) return false;
  if (!(d.number === null || Number.isSafeInteger(d.number))) return false;
  if (!(d.date === null || typeof d.date === 'string')) return false;
  const links = d.links;
  if (!isObject(links)) return false;
  for (let i = 0; i < LINK_LISTS.length; i++)
    if (!Array.isArray(links[LINK_LISTS[i] as string])) return false;
  return true;
}
