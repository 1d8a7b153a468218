/**
 * Cancelling a task that runs here, by its cancellation policy. 'detach'
 * ends the task cancelled at once and lets the work go on, its result
 * dropped. 'abort' aborts the work and waits for it to stop; should it take
 * longer than ABORT_GRACE_MS, the task is reported cancelled anyway.
 */
import { protocolError } from '../host/protocol-error.js';
import type { Runtime } from './runtime.js';
import type { TaskWriter } from './service-types.js';

/** How long an aborted task may take to stop before it is reported cancelled anyway. */
export const ABORT_GRACE_MS = 2_000;

export async function cancelHere(runtime: Runtime, writer: TaskWriter): Promise<void> {
  const now = writer.now();
  if (runtime.policy === 'detach') {
    const applied = await writer.store.finish(
      runtime.id,
      'cancelled',
      { statusMessage: 'Cancelled; the work goes on in the background and its result will be dropped.' },
      now,
    );
    if (applied) writer.changed(runtime.id);
    // Plain on purpose: the detached work's result is dropped, and an unexpected failure of it is
    // logged like any other (a registry error would turn it into a quiet tool error).
    runtime.rejectOutstanding(new Error('task cancelled'));
    return;
  }
  if (runtime.cancelRequested) return;
  runtime.cancelRequested = true;
  if (await writer.store.setWorking(runtime.id, 'Cancelling…', now)) writer.changed(runtime.id);
  runtime.controller.abort(protocolError('TASK_STOPPED', 'task cancelled'));
  runtime.rejectOutstanding(runtime.controller.signal.reason);
  const timer = setTimeout(() => {
    writer.background(
      writer.store
        .finish(
          runtime.id,
          'cancelled',
          { statusMessage: 'Cancelled (the work was still stopping).' },
          writer.now(),
        )
        .then((applied) => {
          if (applied) writer.changed(runtime.id);
        }),
      'task cancel write failed',
    );
  }, ABORT_GRACE_MS);
  timer.unref();
}
