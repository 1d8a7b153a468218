/**
 * Worker thread entry for a parallel cold load: prepares its share of the
 * files and hands the result back through a port, then flags completion so
 * the (synchronously waiting) loader can pick it up.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { type PrepareEntry, prepareFiles } from './prepare.js';

interface WorkerInput {
  readonly entries: PrepareEntry[];
  readonly port: MessagePort;
  /** [0]: 0 while working, 1 done, 2 failed. */
  readonly flag: Int32Array;
}

const { entries, port, flag } = workerData as WorkerInput;
try {
  const batch = prepareFiles(entries);
  const { log } = batch;
  port.postMessage(batch, [log.terms.buffer, log.tfs.buffer, log.ends.buffer, log.docLens.buffer]);
  Atomics.store(flag, 0, 1);
} catch (err) {
  port.postMessage({ error: String(err) });
  Atomics.store(flag, 0, 2);
}
Atomics.notify(flag, 0);
port.close();
