/**
 * node:crypto when a hash is first made, and a name hash that needs none.
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
  crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return crypto.createHash(algorithm);
}

/**
 * 16 hex digits naming a cache file after a folder: two independent 32-bit
 * hashes (FNV-1a and a polynomial one). A name only has to spread; what the
 * file is for is checked against its header when it is read.
 */
export function nameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = (Math.imul(b, 31) + c) | 0;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
