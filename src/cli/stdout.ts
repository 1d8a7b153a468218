/**
 * Writing a command's answer to stdout as bytes on file descriptor 1, not
 * through process.stdout: the stream costs a one-shot command the load of
 * Node's stream machinery (and, for a pipe, of node:net) before its first
 * byte, and a stream still buffering when the process exits can lose the end
 * of the answer. A reader that has gone away (`| head -1`) ends the command
 * quietly with exit 0, as closed-stdout.ts does for stream writes.
 */
import fs from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeOut(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fs.writeSync(1, bytes, at, bytes.length - at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A descriptor left non-blocking by whoever reads it: wait for room, as a blocking write would.
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 1);
      else if (code === 'EPIPE') process.exit(0);
      else {
        process.stderr.write(`moor: cannot write to stdout: ${(error as Error).message}\n`);
        process.exit(1);
      }
    }
  }
}
