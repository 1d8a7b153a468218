/**
 * Bounded optimal-string-alignment distance (Levenshtein plus adjacent
 * transpositions, so "kafak" is one edit from "kafka"). Gives up as soon as
 * the answer must exceed `max`, which keeps fuzzy search and "did you mean"
 * cheap over thousands of candidates.
 */

let prev2 = new Int32Array(64);
let prev = new Int32Array(64);
let row = new Int32Array(64);

/** Edit distance between a and b, or max + 1 when it is larger than max. */
export function boundedDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.min(Math.max(la, lb), max + 1);
  if (row.length <= lb) {
    prev2 = new Int32Array(lb * 2 + 1);
    prev = new Int32Array(lb * 2 + 1);
    row = new Int32Array(lb * 2 + 1);
  }
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    const ca = a.charCodeAt(i - 1);
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = (prev[j - 1] as number) + (ca === cb ? 0 : 1);
      const del = (prev[j] as number) + 1;
      const ins = (row[j - 1] as number) + 1;
      if (del < v) v = del;
      if (ins < v) v = ins;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const swap = (prev2[j - 2] as number) + 1;
        if (swap < v) v = swap;
      }
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = row;
    row = t;
  }
  const d = prev[lb] as number;
  return d > max ? max + 1 : d;
}
