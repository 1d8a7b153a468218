/**
 * Splitting a cold load across two threads, when the caller asks for it
 * (`parallel: true`): a worker prepares part of the files while the loader
 * does the rest, and the loader waits for it synchronously (loading stays a
 * plain synchronous call). Anything going wrong just means the loader does
 * that share itself. Not the default: on two shared vCPUs the threads slow
 * each other down about as much as the split saves, and the worker's isolate
 * costs tens of MiB.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';

import type { PreparedBatch, PrepareEntry } from './prepare.js';

type WorkerThreads = typeof import('node:worker_threads');
let threads: WorkerThreads | undefined;

/** node:worker_threads, loaded at the first split: a one-shot command on a small corpus never pays for it. */
function workerThreads(): WorkerThreads {
  threads ??= createRequire(import.meta.url)('node:worker_threads') as WorkerThreads;
  return threads;
}

/** Below this many files one thread is fast enough, and a worker's start-up would not pay off. */
export const PARALLEL_THRESHOLD = 1500;
/** The worker's share of the files; it starts during the folder walk, so about half. */
export const WORKER_SHARE = 0.48;
const WAIT_LIMIT_MS = 60_000;

/** Next to this module, or, from the daemon's bundle (dist/bundle), in dist/packs/decisions/corpus/load: the worker is not bundled. */
const WORKER_URL = ((): URL => {
  const here = new URL('./load-worker.js', import.meta.url);
  if (!import.meta.url.includes('/bundle/') || existsSync(fileURLToPath(here))) return here;
  return new URL('../packs/decisions/corpus/load/load-worker.js', import.meta.url);
})();

export class WorkerShare {
  private sent = false;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly flag: Int32Array,
  ) {}

  /**
   * Start a worker that waits for its share; null when no worker can be used
   * (running from sources, where the compiled worker script does not exist).
   */
  static spawn(): WorkerShare | null {
    if (!existsSync(fileURLToPath(WORKER_URL))) return null;
    try {
      const flag = new Int32Array(new SharedArrayBuffer(4));
      const { MessageChannel, Worker } = workerThreads();
      const { port1, port2 } = new MessageChannel();
      // No inherited node flags: a loader run under `node -e` would hand the worker that `-e` script
      // too, which then never reports, and the waiting loader sat out its whole wait limit.
      const worker = new Worker(WORKER_URL, {
        workerData: { port: port2, flag },
        transferList: [port2],
        execArgv: [],
      });
      worker.unref();
      // A crash before the worker could report still has to release the waiting loader.
      worker.on('error', () => {
        Atomics.store(flag, 0, 2);
        Atomics.notify(flag, 0);
      });
      return new WorkerShare(worker, port1, flag);
    } catch {
      return null;
    }
  }

  /** Hand the worker its files. */
  send(entries: readonly PrepareEntry[]): void {
    this.sent = true;
    this.port.postMessage(entries);
  }

  /** Not needed after all: let the worker exit. */
  cancel(): void {
    this.port.postMessage(null);
    this.port.close();
  }

  /** Block until the worker is done; null when it failed (the caller then does the work itself). */
  wait(): PreparedBatch | null {
    if (!this.sent) return null;
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while (Atomics.load(this.flag, 0) === 0) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.flag, 0, 0, left) === 'timed-out') break;
    }
    const ok = Atomics.load(this.flag, 0) === 1;
    const message = ok ? workerThreads().receiveMessageOnPort(this.port) : undefined;
    this.port.close();
    if (!ok) void this.worker.terminate();
    const batch = message?.message as PreparedBatch | { error: string } | undefined;
    return batch !== undefined && 'files' in batch ? batch : null;
  }
}
