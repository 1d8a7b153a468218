/**
 * The first load of a corpus: every file is new, so a large corpus is split
 * between this thread and a load worker (see parallel.ts), each reading,
 * parsing and tokenizing its share; the worker's results are then folded in.
 */

import type { ScanEntry } from '../find/scan.js';
import { PARALLEL_THRESHOLD, WORKER_SHARE, type WorkerShare } from './parallel.js';
import type { RecordStore } from './records.js';

/**
 * `share`: a worker already started (or null); `forced`: the caller's
 * `parallel` option (true splits even small corpora, for tests).
 */
export function coldLoad(
  store: RecordStore,
  entries: readonly ScanEntry[],
  share: WorkerShare | null,
  forced: boolean | undefined,
): void {
  store.search.reserve(entries.length);
  const files: Array<ScanEntry & { kind: 'file' }> = [];
  for (const e of entries) {
    if (e.kind === 'file') files.push(e);
    else store.apply(e);
  }
  if (share === null || (forced !== true && files.length < PARALLEL_THRESHOLD)) {
    share?.cancel();
    for (const e of files) store.apply(e);
    return;
  }
  const cut = Math.floor(files.length * (1 - WORKER_SHARE));
  const theirs = files.slice(cut);
  share.send(
    theirs.map((e) => ({
      corpusPath: e.corpusPath,
      readPath: e.readPath,
      rel: store.relOf(e.corpusPath),
      navTitle: store.navTitles.get(e.corpusPath),
    })),
  );
  for (let i = 0; i < cut; i++) store.apply(files[i] as ScanEntry);
  const batch = share.wait();
  if (batch !== null) store.applyPrepared(theirs, batch);
  else for (const e of theirs) store.apply(e);
}
