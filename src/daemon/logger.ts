/**
 * The daemon's log: pino, to `daemon.log` in the state dir and, under
 * `moor daemon run` in a terminal, to stderr too.
 *
 * Rotation is our own and tiny rather than pino-roll: pino-roll runs as a
 * transport in a worker thread (more memory and start-up for a daemon that
 * logs little) and rotates by time/size into numbered files we would still
 * have to prune. Here the file is checked on open and every 30 s; past
 * `maxBytes` it is renamed to `daemon.log.1` (replacing the previous one) and
 * reopened, so the log never takes more than about twice `maxBytes`.
 *
 * The file is opened here, synchronously and without following a symlink
 * (`openStateFileOrThrow`), and pino writes to that descriptor: a planted
 * `daemon.log` symlink is refused instead of written through, an unwritable
 * log fails the start with one clear line, and the destination is ready from
 * the first line (pino's exit flush never meets a file still opening).
 */
import fs from 'node:fs';
import pino, { type Logger } from 'pino';
import { currentTraceId } from '../protocol/trace-scope.js';
import { openStateFileOrThrow } from './state.js';

// The daemon's log lines carry a request's trace id the way every hop writes it.
export { withTrace } from '../protocol/trace.js';

export const DEFAULT_LOG_MAX_BYTES = 10 * 1024 * 1024;
const ROTATE_CHECK_MS = 30_000;

export interface DaemonLogOptions {
  readonly file: string;
  readonly stderr: boolean;
  readonly level?: string;
  readonly maxBytes?: number;
  readonly checkMs?: number;
}

export interface DaemonLog {
  readonly logger: Logger;
  /** Rotates now when the file is over its bound (also runs on a timer). */
  rotateIfNeeded(): void;
  /** Flushes and closes the file. */
  close(): void;
}

export function rotateFile(file: string, maxBytes: number): boolean {
  try {
    if (fs.lstatSync(file).size < maxBytes) return false;
  } catch {
    return false;
  }
  fs.renameSync(file, `${file}.1`);
  return true;
}

/** ` trace=<id>` on the message too, as the hops' own lines write it, unless the message has it already. */
function appendTrace(
  this: Logger,
  args: Parameters<Logger['info']>,
  method: (...a: unknown[]) => void,
): void {
  const trace = currentTraceId();
  if (trace !== undefined) {
    const at = typeof args[0] === 'string' ? 0 : typeof args[1] === 'string' ? 1 : -1;
    const message = at < 0 ? undefined : (args[at] as string);
    if (message !== undefined && !message.includes(`trace=${trace}`)) {
      const copy = [...args] as unknown[];
      copy[at] = `${message} trace=${trace}`;
      method.apply(this, copy);
      return;
    }
  }
  method.apply(this, args as unknown[]);
}

type Destination = ReturnType<typeof pino.destination>;

const APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT;

function openLogDestination(file: string): Destination {
  return pino.destination({ dest: openStateFileOrThrow(file, APPEND, 'open the daemon log'), sync: false });
}

/** One stream for pino that writes to the current log file; rotation swaps the file underneath. */
class LogFileStream {
  #destination: Destination;

  constructor(readonly file: string) {
    this.#destination = openLogDestination(file);
  }

  write(line: string): boolean {
    return this.#destination.write(line);
  }

  flushSync(): void {
    this.#destination.flushSync();
  }

  /** Writes go to a freshly opened `file` from now on; the old descriptor closes once drained. */
  reopen(): void {
    const next = openLogDestination(this.file);
    const previous = this.#destination;
    this.#destination = next;
    previous.end();
  }

  end(): void {
    try {
      this.#destination.flushSync();
    } catch {
      // already closed: nothing buffered to lose
    }
    this.#destination.end();
  }
}

/** Throws STATE_DIR_UNUSABLE when the log cannot be opened (read-only, a symlink, someone else's file). */
export function createDaemonLog(options: DaemonLogOptions): DaemonLog {
  const maxBytes = options.maxBytes ?? DEFAULT_LOG_MAX_BYTES;
  rotateFile(options.file, maxBytes);
  const destination = new LogFileStream(options.file);
  const streams: pino.StreamEntry[] = [{ stream: destination, level: 'trace' }];
  if (options.stderr) streams.push({ stream: process.stderr, level: 'trace' });
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // A line written while a request runs names its trace (the id only: tracestate and baggage stay private).
      mixin: () => {
        const trace = currentTraceId();
        return trace === undefined ? {} : { trace };
      },
      hooks: { logMethod: appendTrace },
    },
    pino.multistream(streams),
  );
  const rotateIfNeeded = () => {
    try {
      if (rotateFile(options.file, maxBytes)) destination.reopen();
    } catch (error) {
      logger.warn({ err: error }, 'log rotation failed');
    }
  };
  const timer = setInterval(rotateIfNeeded, options.checkMs ?? ROTATE_CHECK_MS);
  timer.unref();
  let closed = false;
  return {
    logger,
    rotateIfNeeded,
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      destination.end();
    },
  };
}
