/**
 * Comparing moor versions (semver `MAJOR.MINOR.PATCH[-PRERELEASE]`): a newer
 * proxy asks an older daemon to hand over, an older one never replaces a
 * newer daemon. Build metadata (`+…`) is ignored.
 */

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Negative when `a` is older than `b`, 0 when equal, positive when newer; undefined when either is not semver. */
export function compareVersions(a: string, b: string): number | undefined {
  const left = SEMVER.exec(a);
  const right = SEMVER.exec(b);
  if (!left || !right) return undefined;
  for (let part = 1; part <= 3; part++) {
    const difference = Number(left[part]) - Number(right[part]);
    if (difference !== 0) return Math.sign(difference);
  }
  return comparePrerelease(left[4], right[4]);
}

/** A release is newer than any of its prereleases; identifiers compare numerically when both are numbers. */
function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    if (numeric) return Math.sign(Number(x) - Number(y));
    if (/^\d+$/.test(x)) return -1;
    if (/^\d+$/.test(y)) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
