/**
 * Postings storage, sized for a VM where every freshly touched page costs:
 * - DocLog: documents added since the last merge, doc-major (per document,
 *   its distinct term ids and weighted term frequencies), 5 bytes a posting.
 * - PostingBlock: term-major, immutable. Doc ids are delta-encoded varints
 *   (one byte for most postings), frequencies one byte (BM25 saturates long
 *   before 255), so a posting costs about 2-3 bytes instead of 8.
 */

function growBytes(a: Uint8Array, min: number): Uint8Array<ArrayBuffer> {
  const next = new Uint8Array(Math.max(min, a.length * 2));
  next.set(a);
  return next;
}

function growInts(a: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(min, a.length * 2));
  next.set(a);
  return next;
}

export class DocLog {
  terms = new Int32Array(1024);
  tfs = new Uint8Array(1024);
  length = 0;
  /** Slots in the log, in ascending order, and where each one's postings end. */
  slots = new Int32Array(64);
  ends = new Int32Array(64);
  docs = 0;

  reserve(postings: number): void {
    if (postings > this.terms.length) {
      this.terms = growInts(this.terms, postings);
      this.tfs = growBytes(this.tfs, postings);
    }
  }

  push(term: number, tf: number): void {
    const n = this.length;
    if (n === this.terms.length) this.reserve(n * 2);
    this.terms[n] = term;
    this.tfs[n] = Math.min(tf, 255);
    this.length = n + 1;
  }

  /** Close the current document's postings under `slot` (slots must ascend). */
  endDoc(slot: number): void {
    if (this.docs === this.slots.length) {
      this.slots = growInts(this.slots, this.docs * 2);
      this.ends = growInts(this.ends, this.docs * 2);
    }
    this.slots[this.docs] = slot;
    this.ends[this.docs] = this.length;
    this.docs++;
  }

  clear(): void {
    this.length = 0;
    this.docs = 0;
    if (this.terms.length > 1 << 16) {
      this.terms = new Int32Array(1024);
      this.tfs = new Uint8Array(1024);
    }
  }
}

/** Calls `visit(term, doc, tf)` for every posting: the block's first (term-major), then the log's. */
function forEachPosting(
  block: PostingBlock,
  log: DocLog,
  visit: (term: number, doc: number, tf: number) => void,
): void {
  const terms = block.starts.length - 1;
  for (let t = 0; t < terms; t++) {
    let at = block.byteStarts[t] as number;
    let doc = -1;
    for (let p = block.starts[t] as number, end = block.starts[t + 1] as number; p < end; p++) {
      let delta = 0;
      let shift = 0;
      let b: number;
      do {
        b = block.bytes[at++] as number;
        delta |= (b & 0x7f) << shift;
        shift += 7;
      } while (b & 0x80);
      doc += delta;
      visit(t, doc, block.tfs[p] as number);
    }
  }
  let k = 0;
  for (let d = 0; d < log.docs; d++) {
    const slot = log.slots[d] as number;
    for (const end = log.ends[d] as number; k < end; k++)
      visit(log.terms[k] as number, slot, log.tfs[k] as number);
  }
}

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

export class PostingBlock {
  constructor(
    /** Posting ordinals: term t owns postings [starts[t], starts[t + 1]). */
    readonly starts: Int32Array,
    /** Where term t's varint doc deltas begin in `bytes`. */
    readonly byteStarts: Int32Array,
    readonly bytes: Uint8Array,
    readonly tfs: Uint8Array,
  ) {}

  static empty(): PostingBlock {
    return new PostingBlock(new Int32Array(1), new Int32Array(1), new Uint8Array(0), new Uint8Array(0));
  }

  get size(): number {
    return this.tfs.length;
  }

  /**
   * A new block holding the block's postings followed by the log's, doc ids
   * mapped through `remap` (-1 drops the posting). `remap` must be monotonic
   * and log slots newer than block docs, so each term's docs stay ascending.
   */
  static merge(
    block: PostingBlock,
    log: DocLog,
    termCount: number,
    remap: (doc: number) => number,
  ): PostingBlock {
    const counts = new Int32Array(termCount + 1);
    const byteCounts = new Int32Array(termCount + 1);
    const last = new Int32Array(termCount).fill(-1);
    forEachPosting(block, log, (t, doc) => {
      const d = remap(doc);
      if (d < 0) return;
      counts[t + 1] = (counts[t + 1] as number) + 1;
      byteCounts[t + 1] = (byteCounts[t + 1] as number) + varintSize(d - (last[t] as number));
      last[t] = d;
    });
    for (let t = 0; t < termCount; t++) {
      counts[t + 1] = (counts[t + 1] as number) + (counts[t] as number);
      byteCounts[t + 1] = (byteCounts[t + 1] as number) + (byteCounts[t] as number);
    }
    const starts = counts.slice();
    const byteStarts = byteCounts.slice();
    const bytes = new Uint8Array(byteCounts[termCount] as number);
    const tfs = new Uint8Array(counts[termCount] as number);
    last.fill(-1);
    // counts / byteCounts now serve as per-term write cursors.
    forEachPosting(block, log, (t, doc, tf) => {
      const d = remap(doc);
      if (d < 0) return;
      const p = counts[t] as number;
      tfs[p] = tf;
      counts[t] = p + 1;
      let delta = d - (last[t] as number);
      last[t] = d;
      let at = byteCounts[t] as number;
      while (delta >= 0x80) {
        bytes[at++] = (delta & 0x7f) | 0x80;
        delta >>>= 7;
      }
      bytes[at++] = delta;
      byteCounts[t] = at;
    });
    return new PostingBlock(starts, byteStarts, bytes, tfs);
  }
}
