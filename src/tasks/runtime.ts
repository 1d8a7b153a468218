/**
 * What the task service keeps of a running task that cannot be stored: the
 * work's AbortController, and the input requests its handler waits on
 * (grouped in batches: one requestInput() call resolves when all of its
 * keys are answered). Wire keys are unique for the task's lifetime, so a
 * key asked again gets a fresh one (`key.2`).
 */
import type { InputRequest, InputResponse } from '@modelcontextprotocol/server';
import { isInputResponse } from './wire.js';

export type CancellationPolicy = 'abort' | 'detach';

export interface Batch {
  readonly answers: Record<string, InputResponse>;
  remaining: number;
  resolve(answers: Record<string, InputResponse>): void;
  reject(error: unknown): void;
}

interface Waiting {
  readonly key: string;
  readonly request: InputRequest;
  readonly batch: Batch;
}

export class Runtime {
  readonly id: string;
  readonly tool: string;
  readonly policy: CancellationPolicy;
  readonly controller = new AbortController();
  cancelRequested = false;
  lastMessage: string | null | undefined;
  readonly outstanding = new Map<string, Waiting>();
  readonly #usedKeys = new Set<string>();
  readonly #preAnswered: Map<string, InputResponse>;

  constructor(
    id: string,
    tool: string,
    policy: CancellationPolicy,
    lastMessage: string | null,
    preAnswered: Readonly<Record<string, InputResponse>>,
  ) {
    this.id = id;
    this.tool = tool;
    this.policy = policy;
    this.lastMessage = lastMessage;
    this.#preAnswered = new Map(Object.entries(preAnswered));
  }

  /**
   * Answers from the pre-answered ones where it can; registers the rest as
   * outstanding and returns the promise of all answers, or the answers at
   * once when nothing is left to ask.
   */
  ask(requests: Readonly<Record<string, InputRequest>>): {
    readonly asked: boolean;
    readonly answers: Promise<Record<string, InputResponse>>;
  } {
    const answers: Record<string, InputResponse> = {};
    const asked: Array<[string, InputRequest]> = [];
    for (const [key, request] of Object.entries(requests)) {
      const pre = this.#preAnswered.get(key);
      if (pre !== undefined) {
        this.#preAnswered.delete(key);
        answers[key] = pre;
      } else asked.push([key, request]);
    }
    if (asked.length === 0) return { asked: false, answers: Promise.resolve(answers) };
    const promise = new Promise<Record<string, InputResponse>>((resolve, reject) => {
      const batch: Batch = { answers, remaining: asked.length, resolve, reject };
      for (const [key, request] of asked) {
        let wireKey = key;
        for (let n = 2; this.#usedKeys.has(wireKey); n++) wireKey = `${key}.${n}`;
        this.#usedKeys.add(wireKey);
        this.outstanding.set(wireKey, { key, request, batch });
      }
    });
    return { asked: true, answers: promise };
  }

  /** Applies tasks/update responses; unknown or already answered keys are ignored. Returns completed batches. */
  answer(responses: Readonly<Record<string, unknown>>): Set<Batch> {
    const done = new Set<Batch>();
    for (const [wireKey, response] of Object.entries(responses)) {
      const waiting = this.outstanding.get(wireKey);
      if (waiting === undefined || !isInputResponse(response)) continue;
      this.outstanding.delete(wireKey);
      waiting.batch.answers[waiting.key] = response;
      waiting.batch.remaining -= 1;
      if (waiting.batch.remaining === 0) done.add(waiting.batch);
    }
    return done;
  }

  /** The outstanding requests by wire key: what input_required shows. */
  snapshot(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [wireKey, waiting] of this.outstanding) out[wireKey] = waiting.request;
    return out;
  }

  rejectOutstanding(reason: unknown): void {
    const batches = new Set([...this.outstanding.values()].map((w) => w.batch));
    this.outstanding.clear();
    for (const batch of batches) batch.reject(reason);
  }
}
