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
  /** Id → term. Replaced only by `restore`, on an empty dictionary. */
  terms: string[] = [];
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

  /** The hash side of the dictionary, copied: what a stored index keeps so a restore need not hash every term. */
  tables(): { readonly meta: Int32Array<ArrayBuffer>; readonly table: Int32Array<ArrayBuffer> } {
    return { meta: this.meta.slice(0, 3 * this.terms.length), table: this.table.slice() };
  }

  /**
   * Become the dictionary `tables` was taken of: id i for terms[i], with its
   * hashes and slots as stored (hashing every term again was most of a small
   * one-shot search's restore). False, and the dictionary left empty, when
   * the sizes cannot be a dictionary's of these terms: a table that is no
   * power of two or over half full, or no empty slot for a probe to stop at.
   * Nothing here walks the tables, which would cost a one-shot run about
   * what hashing did: stored values that are wrong (ids out of range or
   * repeated, hashes that are not the term's) can only make a lookup miss,
   * since `find` returns an id only when its stored hashes and length match
   * and there are none past the last term; the cache's checksum is what
   * keeps damage out.
   */
  restore(terms: readonly string[], meta: Int32Array<ArrayBuffer>, table: Int32Array<ArrayBuffer>): boolean {
    if (this.terms.length !== 0) throw new Error('restore needs an empty dictionary');
    const n = terms.length;
    const size = table.length;
    if (meta.length !== 3 * n || size < 4096 || (size & (size - 1)) !== 0 || 2 * n > size) return false;
    if (table.indexOf(0) < 0) return false;
    // Parsed from a file, each term is a string of its own: nothing to detach it from.
    this.terms = terms.slice();
    // Zeros past the last term: length 0 matches no token. Room to intern more after.
    this.meta = new Int32Array(Math.max(3 * 1024, 2 * meta.length));
    this.meta.set(meta);
    this.table = table;
    this.mask = size - 1;
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
