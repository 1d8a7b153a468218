/**
 * A quick "cannot match" for a governed glob, so a governing question does
 * not compile (picomatch) every glob whose folder lies above the file: a
 * one-shot `context` for one file on 1,000 records compiled dozens of
 * patterns like `services/<any service>/src/<folder>/**`, ~2 ms, to reject nearly all of them
 * on a folder name.
 *
 * Only for the common shape: segments of plain characters, `*` and `?`
 * within a segment, and whole `**` segments. Such a glob can only match a
 * path whose segments before the first `**` are as many (or, with a `**`,
 * at least as many) and equal where the glob's are plain; anything else
 * gets no filter and goes straight to picomatch.
 */

const PLAIN_SHAPE = /^[\w.\-*?/ ]+$/;
const WILDCARD = /[*?]/;

/** False only where the glob cannot match (picomatch with `dot: true` says no); null when the glob's shape is not one it reads. */
export function globPrefilter(glob: string): ((file: string) => boolean) | null {
  if (!PLAIN_SHAPE.test(glob) || glob.startsWith('./')) return null;
  const segments = glob.split('/');
  let fixed = segments.length;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    if (s === '' || (s.includes('**') && s !== '**')) return null;
    if (s === '**' && fixed === segments.length) fixed = i;
  }
  const exact = fixed === segments.length;
  // Per fixed segment: the text it must be, or null for a wildcard segment.
  const plain = segments.slice(0, fixed).map((s) => (WILDCARD.test(s) ? null : s));
  return (file) => {
    const parts = file.split('/');
    if (exact ? parts.length !== segments.length : parts.length < fixed) return false;
    for (let i = 0; i < fixed; i++) {
      const want = plain[i];
      if (want !== null && parts[i] !== want) return false;
    }
    return true;
  };
}
