/**
 * Input requests of a running task: asking puts the task in
 * `input_required` with the outstanding requests in its row; tasks/update
 * answers them, and once none is outstanding the task is working again
 * (with the last progress message). The waiting itself is the Runtime's.
 */
import type { InputRequest, InputResponse } from '@modelcontextprotocol/server';
import type { Runtime } from './runtime.js';
import type { TaskWriter } from './service-types.js';

/** The work asks for input; resolves with the answers once every key of this batch is answered. */
export function requestInput(
  runtime: Runtime,
  requests: Readonly<Record<string, InputRequest>>,
  writer: TaskWriter,
): Promise<Record<string, InputResponse>> {
  if (runtime.controller.signal.aborted) return Promise.reject(runtime.controller.signal.reason);
  const { asked, answers } = runtime.ask(requests);
  if (asked) {
    writer.background(
      writer.store.setInputRequired(runtime.id, runtime.snapshot(), writer.now()).then((applied) => {
        if (applied) writer.changed(runtime.id);
      }),
      'task input write failed',
    );
  }
  return answers;
}

/** Answers outstanding input; unknown or already answered keys are ignored. */
export async function answerInput(
  runtime: Runtime,
  responses: Readonly<Record<string, unknown>>,
  writer: TaskWriter,
): Promise<void> {
  if (runtime.outstanding.size === 0) return;
  const done = runtime.answer(responses);
  const now = writer.now();
  const applied =
    runtime.outstanding.size > 0
      ? await writer.store.setInputRequired(runtime.id, runtime.snapshot(), now)
      : await writer.store.setWorking(runtime.id, runtime.lastMessage ?? null, now);
  if (applied) writer.changed(runtime.id);
  for (const batch of done) batch.resolve(batch.answers);
}
