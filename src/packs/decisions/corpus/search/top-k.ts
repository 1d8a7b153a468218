/**
 * The best k of many candidates, in order, without sorting them all: a
 * common word matches most of a 10,000-record corpus, and a page needs ten.
 */

/** `before(a, b)`: a ranks above b. The order must be total (ties broken) for stable pages. */
export function topK(candidates: number[], k: number, before: (a: number, b: number) => boolean): number[] {
  if (k <= 0) return [];
  const cmp = (a: number, b: number): number => (before(a, b) ? -1 : before(b, a) ? 1 : 0);
  if (candidates.length <= k * 4) return candidates.sort(cmp).slice(0, k);
  // A heap with the worst kept candidate at the root.
  const heap: number[] = [];
  const worse = (i: number, j: number): boolean => before(heap[j] as number, heap[i] as number);
  const swap = (i: number, j: number): void => {
    const t = heap[i] as number;
    heap[i] = heap[j] as number;
    heap[j] = t;
  };
  for (const c of candidates) {
    if (heap.length < k) {
      heap.push(c);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
      continue;
    }
    if (!before(c, heap[0] as number)) continue;
    heap[0] = c;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(l, m)) m = l;
      if (r < heap.length && worse(r, m)) m = r;
      if (m === i) break;
      swap(i, m);
      i = m;
    }
  }
  return heap.sort(cmp);
}
