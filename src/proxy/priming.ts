/**
 * A cold start's first answers: while the daemon this proxy has just started
 * is on its way, the handshake and the static lists are answered from the
 * build's primed answers (primed-answers.ts), so the client's first answers
 * do not wait for a second Node process to load the SDK and the packs.
 *
 * The order of a session still holds: a legacy initialize is answered here
 * only when it is the client's first request (the daemon has then seen
 * nothing of the session before it), and a legacy list only after the
 * initialize was answered here, under the version it asked for; a modern
 * request only while no legacy initialize was seen. Whatever is not answered
 * here waits for the daemon, as before. Once connected, the replay tells the
 * daemon what the client was told (replay.ts, `tellPrimed`).
 */
import type { PrimedAnswers } from './primed-answers.js';
import {
  initializeRequestKey,
  legacyListRequestKey,
  modernRequestKey,
  PRIMED_LIST_METHODS,
} from './primed-requests.js';
import type { Id, Message } from './wire.js';

export interface PrimedAnswer {
  readonly line: Buffer;
  /** A tool list's result, when the answer is one (the relay learns from it as from the daemon's). */
  readonly tools?: Record<string, unknown>;
}

export class Priming {
  readonly #answers: PrimedAnswers;
  /** The version a legacy initialize answered here asked for. */
  #legacyVersion: string | undefined;
  /** Some request of the client went (or will go) to the daemon: a legacy initialize is no longer first. */
  #someRelayed = false;
  #sawInitialize = false;
  #answered = false;

  constructor(answers: PrimedAnswers) {
    this.#answers = answers;
  }

  /** Whether anything was answered here: the daemon must then be told (replay.ts). */
  get answeredAny(): boolean {
    return this.#answered;
  }

  /** The primed answer to a client request, or undefined when the daemon must answer it. */
  answer(message: Message & { id: Id; method: string }): PrimedAnswer | undefined {
    const key = this.#keyOf(message);
    const line = key === undefined ? undefined : this.#answers.line(key, message.id);
    if (key === undefined || line === undefined) {
      this.#someRelayed = true;
      return undefined;
    }
    this.#answered = true;
    if (message.method === 'initialize')
      this.#legacyVersion = (message.params as { protocolVersion: string }).protocolVersion;
    if (message.method !== 'tools/list') return { line };
    const tools = this.#answers.result(key);
    return tools === undefined ? { line } : { line, tools };
  }

  #keyOf(message: Message & { id: Id; method: string }): string | undefined {
    if (message.method === 'initialize') {
      const first = !this.#sawInitialize && !this.#someRelayed && !this.#answered;
      this.#sawInitialize = true;
      return first ? initializeRequestKey(message) : undefined;
    }
    if (this.#legacyVersion !== undefined) {
      if (!PRIMED_LIST_METHODS.includes(message.method)) return undefined;
      return legacyListRequestKey(message, this.#legacyVersion);
    }
    return this.#sawInitialize ? undefined : modernRequestKey(message);
  }
}
