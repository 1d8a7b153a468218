/**
 * Writing a command's answer to stdout, and its complaints to stderr, as
 * bytes on file descriptors 1 and 2, not through process.stdout/stderr: the
 * streams cost a one-shot command the load of Node's stream machinery (and,
 * for a pipe, of node:net) before its first byte, and a stream still
 * buffering when the process exits can lose the end of what it was given (on
 * POSIX a pipe's stream writes asynchronously). A reader of stdout that has
 * gone away (`| head -1`) ends the command quietly with exit 0, as
 * closed-stdout.ts does for stream writes.
 */
import fs from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeOut(text: string): void {
  const failure = writeAll(1, text);
  if (failure === 'EPIPE') process.exit(0);
  if (failure !== undefined) {
    writeErr(`moor: cannot write to stdout: ${failure}\n`);
    process.exit(1);
  }
}

/** On stderr; nothing is left to tell when stderr itself cannot be written. */
export function writeErr(text: string): void {
  writeAll(2, text);
}

/** Writes all of `text`, waiting for room; the error code or message when the descriptor refuses. */
function writeAll(fd: number, text: string): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A descriptor left non-blocking by whoever reads it: wait for room, as a blocking write would.
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 1);
      else return code === 'EPIPE' ? code : (error as Error).message;
    }
  }
  return undefined;
}
