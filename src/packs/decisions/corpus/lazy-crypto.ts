/**
 * node:crypto when a hash is first made, and the cache's hashes, which need none.
 *
 * The one-shot CLI runs as one CommonJS bundle, where every builtin a module
 * imports is required when the bundle starts; node:crypto costs such a run
 * about 3 ms, and a command answered from the parse cache makes no hash of a
 * record's text at all.
 */
import type { Hash } from 'node:crypto';
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

/** node:crypto's createHash, the module loaded on the first call. */
export function createHash(algorithm: string): Hash {
  // Any absolute base resolves a builtin; import.meta.url would cost the bundle a file URL made at run time.
  crypto ??= createRequire('/')('node:crypto') as Crypto;
  return crypto.createHash(algorithm);
}

/**
 * A 64-bit hash (FNV-1a and a polynomial hash, side by side) of strings, for
 * names that only have to spread: a cache file's, after the folder it is for,
 * and a search cursor's key. Nothing here guards against an attacker: the
 * caches live in the user's own 0700 state dir, and a cache entry is only
 * ever a cache.
 */
export class Hash64 {
  private a = 0x811c9dc5 | 0;
  private b = 0;

  text(text: string): this {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = (Math.imul(b, 31) + c) | 0;
    }
    this.a = a;
    this.b = b;
    return this;
  }

  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }
}

/** 16 hex digits naming a cache file after a folder: a name only has to spread, the header says whose it is. */
export function nameHash(text: string): string {
  return new Hash64().text(text).hex();
}
