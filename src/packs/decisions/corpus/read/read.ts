/**
 * Reading one record: open without following a final symlink, stat the open
 * descriptor (the stamp refresh compares), read into one reused buffer and
 * decode. Pure-ASCII files (nearly all of them) decode as Latin-1, which is
 * several times faster than the UTF-8 decoder and gives the same string.
 */
import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** Larger files are not decision records; reading them would only cost memory. */
export const MAX_FILE_BYTES = 1024 * 1024;

// O_NONBLOCK: a FIFO dropped into the corpus must not hang the process on open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
let buffer = Buffer.allocUnsafe(256 * 1024);

export type ReadOutcome =
  | { readonly kind: 'text'; readonly stamp: string; readonly text: string }
  | { readonly kind: 'skipped'; readonly stamp: string; readonly reason: string }
  /** Vanished between the folder walk and the read: the file simply is not there. */
  | { readonly kind: 'gone' };

export function stampOf(size: number, mtimeMs: number, ino: number): string {
  return `${size}:${mtimeMs}:${ino}`;
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? String(err);
}

/** The stamp of a path without reading it; null when it is gone. */
export function statStamp(file: string): string | null {
  try {
    const st = statSync(file);
    return stampOf(st.size, st.mtimeMs, st.ino);
  } catch {
    return null;
  }
}

/**
 * Read an open regular file to its end and decode it; null past the size
 * limit. A short read means the end of a regular file, so the usual case is
 * one read call, not a second one just to see zero bytes.
 */
function readAll(fd: number): { readonly text: string; readonly bytes: number } | null {
  let n = 0;
  for (;;) {
    if (n === buffer.length) {
      const grown = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(grown, 0, 0, n);
      buffer = grown;
    }
    const space = buffer.length - n;
    const got = readSync(fd, buffer, n, space, n);
    n += got;
    if (n > MAX_FILE_BYTES) return null;
    if (got < space) break;
  }
  const bytes = buffer.subarray(0, n);
  return { text: isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'), bytes: n };
}

/**
 * The first `bytes` bytes of a file, decoded, and whether that was all of it.
 * Snippets usually need only the top of a file; decoding just that keeps a
 * search from allocating whole files.
 */
export function readPrefix(file: string, bytes: number): { text: string; complete: boolean } | null {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    if (buffer.length < bytes) buffer = Buffer.allocUnsafe(bytes);
    const got = readSync(fd, buffer, 0, bytes, 0);
    const view = buffer.subarray(0, got);
    return { text: isAscii(view) ? view.toString('latin1') : view.toString('utf8'), complete: got < bytes };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The current text of a file already known to be a decision, with no stat: null when it cannot be read. */
export function readText(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    return readAll(fd)?.text ?? null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

export function readRecord(file: string): ReadOutcome {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { kind: 'gone' };
    return { kind: 'skipped', stamp: `error:${code}`, reason: `cannot be read (${code})` };
  }
  try {
    const st = fstatSync(fd);
    const stamp = stampOf(st.size, st.mtimeMs, st.ino);
    if (!st.isFile()) return { kind: 'skipped', stamp, reason: 'not a regular file' };
    if (st.size > MAX_FILE_BYTES) {
      return {
        kind: 'skipped',
        stamp,
        reason: `larger than ${MAX_FILE_BYTES} bytes; not read as a decision`,
      };
    }
    if (buffer.length < st.size + 1) buffer = Buffer.allocUnsafe(Math.max(st.size + 1, buffer.length * 2));
    const read = readAll(fd);
    if (read === null) {
      return {
        kind: 'skipped',
        stamp,
        reason: `larger than ${MAX_FILE_BYTES} bytes; not read as a decision`,
      };
    }
    // Another size than the stat said: the file was rewritten while we read it (truncated, then
    // written). Its mtime may not have moved (coarse clocks), so keeping that stamp could make the
    // half-read text look current for good; a stamp no stat gives makes the next event re-read it.
    if (read.bytes !== st.size) return { kind: 'text', stamp: `changing:${stamp}`, text: read.text };
    return { kind: 'text', stamp, text: read.text };
  } catch (err) {
    return {
      kind: 'skipped',
      stamp: `error:${errorCode(err)}`,
      reason: `cannot be read (${errorCode(err)})`,
    };
  } finally {
    closeSync(fd);
  }
}
