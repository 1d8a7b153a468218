/**
 * A quick "cannot match" for a governed glob, so a governing question does
 * not compile (picomatch) every glob whose folder lies above the file: a
 * one-shot `context` for one file on 1,000 records compiled dozens of
 * patterns like `services/<any>/src/<folder>/**`, ~2 ms, to reject nearly
 * all of them on a folder name.
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
  // No allocation: a daemon runs this for every candidate glob of every file it is asked about.
  return (file) => {
    let at = 0;
    for (let i = 0; i < fixed; i++) {
      // The path ran out of segments before the glob's fixed part did.
      if (at > file.length) return false;
      const slash = file.indexOf('/', at);
      const end = slash < 0 ? file.length : slash;
      const want = plain[i];
      if (want !== null && want !== undefined && (end - at !== want.length || !file.startsWith(want, at)))
        return false;
      at = end + 1;
    }
    // Past the path's end exactly when its last segment was the glob's last fixed one.
    return !exact || at === file.length + 1;
  };
}
