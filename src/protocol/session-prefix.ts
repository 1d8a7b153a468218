/**
 * How operator views name a session: a key is a credential over HTTP
 * (whoever sends it acts as that session), so no view shows a whole key,
 * only its first characters and "…". At least 12, and as many more as it
 * takes to tell it from every other key of the same listing: two keys that
 * share their first 12 characters must not look the same.
 */
export const MIN_PREFIX_CHARS = 12;

/** The first `length` characters of the key and "…"; a short key keeps at least 4 characters hidden. */
export function keyPrefix(key: string, length = MIN_PREFIX_CHARS): string {
  return `${key.slice(0, Math.max(1, Math.min(length, key.length - 4)))}…`;
}

function commonLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/**
 * Each key's shortest prefix (≥ 12 characters) that no other key of `keys`
 * starts with. Sorted keys put the longest shared start of a key next to it,
 * so comparing neighbours is enough.
 */
export function uniqueKeyPrefixes(keys: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(keys)].sort();
  const prefixes = new Map<string, string>();
  sorted.forEach((key, i) => {
    const before = i > 0 ? commonLength(key, sorted[i - 1] as string) : 0;
    const after = i + 1 < sorted.length ? commonLength(key, sorted[i + 1] as string) : 0;
    prefixes.set(key, keyPrefix(key, Math.max(MIN_PREFIX_CHARS, before + 1, after + 1)));
  });
  return prefixes;
}
