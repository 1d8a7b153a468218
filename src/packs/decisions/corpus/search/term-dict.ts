/**
 * Term interning: every distinct lowercase token gets a small integer id.
 * The tokenizer computes two independent 32-bit hashes (FNV-1a and a
 * polynomial hash) while it scans, and the table is keyed by the pair, so a
 * token is found without slicing it into a string or comparing characters.
 * A false match needs both hashes and the length to collide: about one in
 * 2^64 per pair of terms.
 */

import { detach } from '../read/text.js';

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

export function hash1(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

export function hash2(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export class TermDict {
  readonly terms: string[] = [];
  /** Per id: [hash1, hash2, length], side by side so a probe touches one cache line. */
  private meta = new Int32Array(3 * 1024);
  /** Slot → id + 1; 0 is empty. */
  private table = new Int32Array(4096);
  private mask = 4095;

  get size(): number {
    return this.terms.length;
  }

  term(id: number): string {
    return this.terms[id] as string;
  }

  /** Id of an already lowercase term, or -1. */
  lookup(term: string): number {
    return this.find(hash1(term), hash2(term), term.length);
  }

  /** Id of an already lowercase term, adding it when new. */
  intern(term: string): number {
    const a = hash1(term);
    const b = hash2(term);
    const id = this.find(a, b, term.length);
    return id >= 0 ? id : this.insert(a, b, term);
  }

  /** Id for a hash pair and length, or -1. */
  find(a: number, b: number, length: number): number {
    const table = this.table;
    const meta = this.meta;
    const mask = this.mask;
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      const v = table[slot] as number;
      if (v === 0) return -1;
      const k = 3 * (v - 1);
      if (meta[k] === a && meta[k + 1] === b && meta[k + 2] === length) return v - 1;
    }
  }

  /**
   * Fill an empty dictionary with `terms`, id i for terms[i], as a restored
   * index needs: both hashes in one pass, the table sized once, no lookups.
   * False (and the dictionary left empty) when two terms are the same, which
   * a dictionary never writes: the snapshot is not one to use.
   */
  restoreTerms(terms: readonly string[]): boolean {
    if (this.terms.length !== 0) throw new Error('restoreTerms needs an empty dictionary');
    let size = this.table.length;
    while (terms.length * 2 > size) size *= 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    const meta = new Int32Array(Math.max(3 * 1024, 3 * terms.length));
    for (let id = 0; id < terms.length; id++) {
      const term = terms[id] as string;
      let a = FNV_OFFSET;
      let b = 0;
      for (let i = 0; i < term.length; i++) {
        const c = term.charCodeAt(i);
        a = Math.imul(a ^ c, FNV_PRIME);
        b = (Math.imul(b, 31) + c) | 0;
      }
      meta[3 * id] = a;
      meta[3 * id + 1] = b;
      meta[3 * id + 2] = term.length;
      let slot = a & mask;
      for (let v = table[slot] as number; v !== 0; v = table[slot] as number) {
        const k = 3 * (v - 1);
        if (meta[k] === a && meta[k + 1] === b && meta[k + 2] === term.length) return false;
        slot = (slot + 1) & mask;
      }
      table[slot] = id + 1;
    }
    // Parsed from a file, each term is a string of its own: nothing to detach it from.
    for (const term of terms) this.terms.push(term);
    this.meta = meta;
    this.table = table;
    this.mask = mask;
    return true;
  }

  /** Add a term whose hashes the caller computed; it must not be present yet. */
  insert(a: number, b: number, term: string): number {
    const id = this.terms.length;
    // Terms are cut from whole files; a flat copy lets the file text be collected.
    this.terms.push(detach(term));
    if (3 * id + 3 > this.meta.length) this.meta = growInt(this.meta);
    this.meta[3 * id] = a;
    this.meta[3 * id + 1] = b;
    this.meta[3 * id + 2] = term.length;
    // Keep the load factor under one half so probe runs stay short.
    if (this.terms.length * 2 > this.table.length) this.rehash();
    else this.place(this.table, this.mask, id);
    return id;
  }

  private place(table: Int32Array, mask: number, id: number): void {
    let slot = (this.meta[3 * id] as number) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = id + 1;
  }

  private rehash(): void {
    const size = this.table.length * 2;
    const table = new Int32Array(size);
    for (let id = 0; id < this.terms.length; id++) this.place(table, size - 1, id);
    this.table = table;
    this.mask = size - 1;
  }
}

function growInt(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}
