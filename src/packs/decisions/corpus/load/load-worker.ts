/**
 * Worker thread entry for a parallel cold load. It starts while the loader is
 * still walking the folder, waits for its share of the files, prepares them,
 * hands the result back through the port and flags completion so the
 * (synchronously waiting) loader can pick it up. A null share means "not
 * needed after all".
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { type PrepareEntry, prepareFiles } from './prepare.js';

interface WorkerInput {
  readonly port: MessagePort;
  /** [0]: 0 while working, 1 done, 2 failed. */
  readonly flag: Int32Array;
}

const { port, flag } = workerData as WorkerInput;

function finish(state: 1 | 2): void {
  Atomics.store(flag, 0, state);
  Atomics.notify(flag, 0);
  port.close();
}

port.once('message', (entries: PrepareEntry[] | null) => {
  if (entries === null) {
    port.close();
    return;
  }
  try {
    const batch = prepareFiles(entries);
    const { log } = batch;
    port.postMessage(batch, [log.terms.buffer, log.tfs.buffer, log.ends.buffer, log.docLens.buffer]);
    finish(1);
  } catch (err) {
    port.postMessage({ error: String(err) });
    finish(2);
  }
});
