/**
 * BM25 scoring straight off the varint posting blocks. Each query word is a
 * group of expansions (exact, prefix, typo) with weights; a document scores
 * the best expansion of each group it contains, summed over groups.
 */
import type { PostingBlock } from './postings.js';

const K1 = 1.2;
const B = 0.75;

/** Per query term, the dictionary terms that count for it and how much. */
export interface Expansion {
  readonly id: number;
  readonly weight: number;
}

/** What scoring reads from the index. */
export interface IndexView {
  /** The main block and the delta of recent additions. */
  readonly blocks: readonly PostingBlock[];
  readonly alive: Uint8Array;
  readonly docLen: Float32Array;
  readonly live: number;
  readonly totalLen: number;
  df(term: number): number;
}

/** Per-slot scratch: `best` must be all zero on entry and is left so. */
export interface Scratch {
  readonly scores: Float64Array;
  readonly hits: Uint8Array;
  readonly best: Float64Array;
  /** Slots touched by the query: `out[0, n)`. */
  readonly out: Int32Array;
  readonly groupTouched: Int32Array;
}

/** Live documents containing `term` in `blocks`. */
export function countLive(term: number, blocks: readonly PostingBlock[], alive: Uint8Array): number {
  let n = 0;
  for (const block of blocks) {
    if (term + 1 >= block.starts.length) continue;
    const bytes = block.bytes;
    let at = block.byteStarts[term] as number;
    let d = -1;
    for (let p = block.starts[term] as number, end = block.starts[term + 1] as number; p < end; p++) {
      let b = bytes[at++] as number;
      let delta = b & 0x7f;
      for (let shift = 7; b & 0x80; shift += 7) {
        b = bytes[at++] as number;
        delta |= (b & 0x7f) << shift;
      }
      d += delta;
      if (alive[d] === 1) n++;
    }
  }
  return n;
}

/**
 * Adds each group's best expansion score per slot into `scores`, counts the
 * groups a slot matched in `hits`, and returns how many slots were touched.
 */
export function scoreGroups(view: IndexView, groups: readonly (readonly Expansion[])[], s: Scratch): number {
  const n = view.live;
  const avg = n > 0 ? view.totalLen / n : 1;
  const { alive, docLen } = view;
  const { scores, hits, best, out, groupTouched } = s;
  let touchedAll = 0;
  for (const group of groups) {
    let gt = 0;
    for (const { id, weight } of group) {
      const df = view.df(id);
      if (df <= 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * weight;
      for (const block of view.blocks) {
        if (id + 1 >= block.starts.length) continue;
        const bytes = block.bytes;
        const tfs = block.tfs;
        let at = block.byteStarts[id] as number;
        let d = -1;
        for (let p = block.starts[id] as number, end = block.starts[id + 1] as number; p < end; p++) {
          let b = bytes[at++] as number;
          let delta = b & 0x7f;
          for (let shift = 7; b & 0x80; shift += 7) {
            b = bytes[at++] as number;
            delta |= (b & 0x7f) << shift;
          }
          d += delta;
          if (alive[d] !== 1) continue;
          const tf = tfs[p] as number;
          const score = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * (docLen[d] as number)) / avg));
          const prev = best[d] as number;
          if (prev === 0) groupTouched[gt++] = d;
          if (score > prev) best[d] = score;
        }
      }
    }
    for (let k = 0; k < gt; k++) {
      const d = groupTouched[k] as number;
      if (hits[d] === 0) out[touchedAll++] = d;
      hits[d] = (hits[d] as number) + 1;
      scores[d] = (scores[d] as number) + (best[d] as number);
      best[d] = 0;
    }
  }
  return touchedAll;
}
