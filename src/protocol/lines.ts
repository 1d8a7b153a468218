/**
 * Newline framing on raw bytes: complete lines come out as Buffers (without
 * the newline), so a relay can forward a frame's exact bytes. A line may be
 * bounded: one that grows past the bound is reported once, by its first
 * bytes, and the rest of it is dropped up to its newline.
 */
import { ID_SCAN_BYTES } from './json-shape.js';

export class LineSplitter {
  readonly #maxLineBytes: number;
  /** The start of the current line, in the chunks it arrived in (joined once, when its newline comes). */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** The current line outgrew the bound and was reported: its bytes are dropped up to its newline. */
  #skipping = false;

  constructor(maxLineBytes = Number.POSITIVE_INFINITY) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Calls `onLine` for every complete line in `chunk` (and what was left over
   * before it), and `onOversized` with the first bytes of a line over the bound.
   */
  push(chunk: Buffer, onLine: (line: Buffer) => void, onOversized?: (head: Buffer) => void): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline < 0) break;
      if (this.#skipping) this.#skipping = false;
      else {
        let line = chunk.subarray(start, newline);
        if (this.#partial.length > 0) {
          line = Buffer.concat([...this.#partial, line]);
          this.#partial = [];
          this.#partialBytes = 0;
        }
        if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
        if (line.length > this.#maxLineBytes) onOversized?.(line.subarray(0, ID_SCAN_BYTES));
        else if (line.length > 0) onLine(line);
      }
      start = newline + 1;
    }
    if (start >= chunk.length || this.#skipping) return;
    // Copied: the caller may reuse its chunk's memory.
    const rest = Buffer.from(chunk.subarray(start));
    this.#partial.push(rest);
    this.#partialBytes += rest.length;
    if (this.#partialBytes > this.#maxLineBytes) {
      const head = Buffer.concat(this.#partial, Math.min(ID_SCAN_BYTES, this.#partialBytes));
      this.#partial = [];
      this.#partialBytes = 0;
      this.#skipping = true;
      onOversized?.(head);
    }
  }

  get pendingBytes(): number {
    return this.#partialBytes;
  }
}
