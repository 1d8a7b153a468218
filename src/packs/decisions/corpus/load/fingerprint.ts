/**
 * Corpus fingerprint: an order-independent combination (XOR of two 32-bit
 * FNV lanes) of every record's path and size/mtime/inode stamp, plus the
 * record count. Updating it for one file is O(1), and it is the same across
 * restarts for the same files, so cursors survive a daemon restart.
 */

export class Fingerprint {
  private lo = 0;
  private hi = 0;
  private count = 0;
  /** The string form, made once per change: it is asked for on every remembered call. */
  private text: string | undefined;

  toggle(key: string, stamp: string, present: boolean): void {
    this.text = undefined;
    const s = `${key}\u0000${stamp}`;
    // Both lanes in one pass: a load toggles every record in code that has not warmed up.
    let lo = 0x811c9dc5;
    let hi = 0x01234567;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      lo = Math.imul(lo ^ c, 0x01000193);
      hi = Math.imul(hi ^ c, 0x01000193);
    }
    this.lo ^= lo >>> 0;
    this.hi ^= hi >>> 0;
    this.count += present ? 1 : -1;
  }

  toString(): string {
    const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
    this.text ??= `${this.count.toString(36)}-${hex(this.hi)}${hex(this.lo)}`;
    return this.text;
  }
}
