/**
 * Corpus fingerprint: an order-independent combination (XOR of two 32-bit
 * FNV lanes) of every record's path and size/mtime/inode stamp, plus the
 * record count. Updating it for one file is O(1), and it is the same across
 * restarts for the same files, so cursors survive a daemon restart.
 */

function lane(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Fingerprint {
  private lo = 0;
  private hi = 0;
  private count = 0;
  /** The string form, made once per change: it is asked for on every remembered call. */
  private text: string | undefined;

  toggle(key: string, stamp: string, present: boolean): void {
    this.text = undefined;
    const s = `${key}\u0000${stamp}`;
    this.lo ^= lane(s, 0x811c9dc5);
    this.hi ^= lane(s, 0x01234567);
    this.count += present ? 1 : -1;
  }

  toString(): string {
    const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
    this.text ??= `${this.count.toString(36)}-${hex(this.hi)}${hex(this.lo)}`;
    return this.text;
  }
}
