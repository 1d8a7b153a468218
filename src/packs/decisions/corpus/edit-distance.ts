/**
 * Bounded Levenshtein distance: gives up as soon as the answer must exceed
 * `max`, which keeps fuzzy search and "did you mean" cheap over thousands of
 * candidates.
 */

let row = new Int32Array(64);

/** Edit distance between a and b, or max + 1 when it is larger than max. */
export function boundedDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0) return lb;
  if (lb === 0) return la;
  if (row.length <= lb) row = new Int32Array(lb * 2 + 1);
  for (let j = 0; j <= lb; j++) row[j] = j;
  for (let i = 1; i <= la; i++) {
    const ca = a.charCodeAt(i - 1);
    let diag = row[0] as number;
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= lb; j++) {
      const up = row[j] as number;
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let v = diag + cost;
      const left = (row[j - 1] as number) + 1;
      if (left < v) v = left;
      if (up + 1 < v) v = up + 1;
      row[j] = v;
      diag = up;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
  }
  const d = row[lb] as number;
  return d > max ? max + 1 : d;
}
