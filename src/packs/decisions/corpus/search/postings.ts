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
      const size = Math.max(postings, this.terms.length * 2);
      this.terms = growInts(this.terms, size);
      this.tfs = growBytes(this.tfs, size);
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
   * mapped through `remap` (-1 drops the posting; null keeps ids). The map
   * must be monotonic and log slots newer than block docs, so each term's
   * docs stay ascending. Two passes: sizes, then bytes.
   */
  static merge(block: PostingBlock, log: DocLog, termCount: number, remap: Int32Array | null): PostingBlock {
    const m = new Merge(termCount);
    m.pass(block, log, remap, null);
    const starts = m.prefixSums(m.counts);
    const byteStarts = m.prefixSums(m.byteCounts);
    const out = new PostingBlock(
      starts,
      byteStarts,
      new Uint8Array(byteStarts[termCount] as number),
      new Uint8Array(starts[termCount] as number),
    );
    m.counts.set(starts);
    m.byteCounts.set(byteStarts);
    m.last.fill(-1);
    m.pass(block, log, remap, out);
    return out;
  }
}

/** Merge state: per-term counts (then write cursors) and the last doc written per term. */
class Merge {
  readonly counts: Int32Array;
  readonly byteCounts: Int32Array;
  readonly last: Int32Array;

  constructor(readonly termCount: number) {
    this.counts = new Int32Array(termCount + 1);
    this.byteCounts = new Int32Array(termCount + 1);
    this.last = new Int32Array(termCount).fill(-1);
  }

  /** Exclusive prefix sums of per-term sizes counted at index t + 1: the start of each term. */
  prefixSums(sizes: Int32Array): Int32Array {
    const out = new Int32Array(this.termCount + 1);
    for (let t = 0; t < this.termCount; t++) out[t + 1] = (out[t] as number) + (sizes[t + 1] as number);
    return out;
  }

  /** Visit every live posting: count it (out null) or write it into `out`. Loops written out: this runs over millions. */
  pass(block: PostingBlock, log: DocLog, remap: Int32Array | null, out: PostingBlock | null): void {
    const terms = block.starts.length - 1;
    const bytes = block.bytes;
    for (let t = 0; t < terms; t++) {
      let at = block.byteStarts[t] as number;
      let doc = -1;
      for (let p = block.starts[t] as number, end = block.starts[t + 1] as number; p < end; p++) {
        let b = bytes[at++] as number;
        let delta = b & 0x7f;
        for (let shift = 7; b & 0x80; shift += 7) {
          b = bytes[at++] as number;
          delta |= (b & 0x7f) << shift;
        }
        doc += delta;
        const d = remap === null ? doc : (remap[doc] as number);
        if (d >= 0) this.put(t, d, block.tfs[p] as number, out);
      }
    }
    let k = 0;
    for (let i = 0; i < log.docs; i++) {
      const slot = log.slots[i] as number;
      const end = log.ends[i] as number;
      const d = remap === null ? slot : (remap[slot] as number);
      if (d >= 0) for (; k < end; k++) this.put(log.terms[k] as number, d, log.tfs[k] as number, out);
      k = end;
    }
  }

  private put(t: number, d: number, tf: number, out: PostingBlock | null): void {
    let delta = d - (this.last[t] as number);
    this.last[t] = d;
    if (out === null) {
      this.counts[t + 1] = (this.counts[t + 1] as number) + 1;
      this.byteCounts[t + 1] = (this.byteCounts[t + 1] as number) + varintSize(delta);
      return;
    }
    const p = this.counts[t] as number;
    out.tfs[p] = tf;
    this.counts[t] = p + 1;
    let at = this.byteCounts[t] as number;
    while (delta >= 0x80) {
      out.bytes[at++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    out.bytes[at++] = delta;
    this.byteCounts[t] = at;
  }
}

/**
 * A checksum of term `t`'s postings (its doc-id bytes, then its frequencies,
 * then both lengths): FNV-1a, one byte at a time, as a stored index records
 * it per term so that a query verifies only the terms it reads.
 */
export function termChecksum(
  block: Pick<PostingBlock, 'starts' | 'byteStarts' | 'bytes' | 'tfs'>,
  t: number,
): number {
  let h = 0x811c9dc5 | 0;
  const { bytes, tfs } = block;
  const from = block.byteStarts[t] as number;
  const to = block.byteStarts[t + 1] as number;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  const first = block.starts[t] as number;
  const end = block.starts[t + 1] as number;
  for (let p = first; p < end; p++) h = Math.imul(h ^ (tfs[p] as number), 0x01000193);
  h = Math.imul(h ^ (to - from), 0x01000193);
  return Math.imul(h ^ (end - first), 0x01000193);
}
