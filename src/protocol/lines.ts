/**
 * Newline framing on raw bytes: complete lines come out as Buffers (without
 * the newline), so a relay can forward a frame's exact bytes.
 */

export class LineSplitter {
  #partial: Buffer | undefined;

  /** Calls `onLine` for every complete line in `chunk` (and what was left over before it). */
  push(chunk: Buffer, onLine: (line: Buffer) => void): void {
    let data = chunk;
    if (this.#partial) {
      data = Buffer.concat([this.#partial, chunk]);
      this.#partial = undefined;
    }
    let start = 0;
    for (;;) {
      const newline = data.indexOf(10, start);
      if (newline < 0) break;
      let end = newline;
      if (end > start && data[end - 1] === 13) end -= 1;
      if (end > start) onLine(data.subarray(start, end));
      start = newline + 1;
    }
    if (start < data.length) this.#partial = Buffer.from(data.subarray(start));
  }

  get pendingBytes(): number {
    return this.#partial?.length ?? 0;
  }
}
