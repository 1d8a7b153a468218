/**
 * One record per Markdown file in the corpus, and the per-record indexes
 * that follow it: search postings, governed-path globs, the fingerprint and
 * the problem list. Changes are collected per batch for the derived state.
 */
import path from 'node:path';
import { BodyCache } from './body-cache.js';
import { Fingerprint } from './fingerprint.js';
import { GlobIndex } from './glob-index.js';
import type { Decision, Problem } from './model.js';
import { parseDecision } from './parse.js';
import { toPosix } from './paths.js';
import { readRecord, statStamp } from './read.js';
import type { ScanEntry } from './scan.js';
import { DecisionSearch } from './search.js';

export interface FileRecord {
  /** size:mtime:inode of the file as read, or a marker for skipped files. */
  readonly stamp: string;
  readonly decision: Decision | null;
  readonly problems: readonly Problem[];
}

export interface RefreshStats {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
}

export interface Batch {
  /** Previous versions of records that changed or disappeared. */
  readonly removed: Decision[];
  readonly added: Decision[];
  readonly stats: RefreshStats;
}

export class RecordStore {
  readonly search = new DecisionSearch();
  readonly globs = new GlobIndex();
  readonly bodies: BodyCache;
  private readonly records = new Map<string, FileRecord>();
  private readonly withProblems = new Map<string, readonly Problem[]>();
  private readonly print = new Fingerprint();
  private removed: Decision[] = [];
  private added: Decision[] = [];
  private stats = { added: 0, changed: 0, removed: 0 };

  constructor(
    private readonly root: string,
    onStale: (readPath: string) => void,
  ) {
    this.bodies = new BodyCache(onStale);
  }

  get size(): number {
    return this.records.size;
  }

  get fingerprint(): string {
    return this.print.toString();
  }

  keys(): string[] {
    return [...this.records.keys()];
  }

  problems(): Problem[] {
    return [...this.withProblems.values()].flat();
  }

  /** Bring the record for one scanned entry up to date; unchanged files cost one stat. */
  apply(e: ScanEntry): void {
    const old = this.records.get(e.corpusPath);
    const rel = toPosix(path.relative(this.root, e.abs));
    if (e.kind === 'skipped') {
      const stamp = `skipped:${e.reason}`;
      if (old?.stamp !== stamp) this.set(e.corpusPath, skippedRecord(stamp, rel, e.reason), '', 0);
      return;
    }
    if (old !== undefined && statStamp(e.readPath) === old.stamp) return;
    const read = readRecord(e.readPath);
    if (read.kind === 'gone') {
      this.drop(e.corpusPath);
      return;
    }
    if (old?.stamp === read.stamp) return;
    if (read.kind === 'skipped') {
      this.set(e.corpusPath, skippedRecord(read.stamp, rel, read.reason), '', 0);
      return;
    }
    const { readPath } = e;
    const { stamp } = read;
    const parsed = parseDecision({
      text: read.text,
      path: rel,
      corpusPath: e.corpusPath,
      loadBody: () => this.bodies.get(readPath, stamp),
    });
    // A file that just changed is likely to be asked for next.
    if (old !== undefined) this.bodies.put(this.bodies.keyOf(readPath, stamp), parsed.body);
    this.set(
      e.corpusPath,
      { stamp, decision: parsed.decision, problems: parsed.problems },
      parsed.body,
      parsed.contentStart,
    );
  }

  drop(key: string): void {
    const old = this.records.get(key);
    if (old === undefined) return;
    this.unindex(key, old);
    this.records.delete(key);
    this.stats.removed++;
  }

  /** Drop every record under the corpus folder `key` (a folder that went away). */
  dropUnder(key: string): void {
    const prefix = key === '' ? '' : `${key}/`;
    for (const k of this.keys()) if (k.startsWith(prefix)) this.drop(k);
  }

  /** The decisions added and removed since the last call, and how many records changed. */
  takeBatch(): Batch {
    const batch = { removed: this.removed, added: this.added, stats: this.stats };
    this.removed = [];
    this.added = [];
    this.stats = { added: 0, changed: 0, removed: 0 };
    this.search.commit();
    return batch;
  }

  private set(key: string, record: FileRecord, body: string, contentStart: number): void {
    const old = this.records.get(key);
    if (old !== undefined) {
      this.unindex(key, old);
      this.stats.changed++;
    } else {
      this.stats.added++;
    }
    this.records.set(key, record);
    this.print.toggle(key, record.stamp, true);
    if (record.problems.length > 0) this.withProblems.set(key, record.problems);
    const d = record.decision;
    if (d !== null) {
      this.search.upsert(d, body, contentStart);
      this.globs.add(d);
      this.added.push(d);
    }
  }

  private unindex(key: string, old: FileRecord): void {
    this.print.toggle(key, old.stamp, false);
    this.withProblems.delete(key);
    const d = old.decision;
    if (d === null) return;
    this.search.remove(d.path);
    this.globs.remove(d);
    // Added and removed again within one batch: the derived state never saw it.
    const pending = this.added.indexOf(d);
    if (pending >= 0) this.added.splice(pending, 1);
    else this.removed.push(d);
  }
}

function skippedRecord(stamp: string, rel: string, reason: string): FileRecord {
  return { stamp, decision: null, problems: [{ path: rel, kind: 'skipped', message: reason }] };
}
