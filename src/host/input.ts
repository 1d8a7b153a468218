/**
 * Asking the client for input on a synchronous request (tools/call,
 * prompts/get): ToolContext.requestInput over multi-round-trip requests
 * (MRTR, SEP-2322).
 *
 * A handler calls `await ctx.requestInput({ key: request, … })`. When every
 * key already has an answer, it resolves at once; otherwise the run stops
 * (InputRequiredSignal) and the request is answered `input_required` with
 * the missing requests and a sealed `requestState`. The client answers and
 * sends the request again; the handler runs again from the start and this
 * time its questions are answered — from the retry's `inputResponses`, and
 * for questions of earlier rounds from the sealed state, which carries every
 * answer so far (a client only echoes the latest round's responses).
 *
 * The state is HMAC-sealed (createRequestStateCodec, wired as
 * ServerOptions.requestState.verify): tampered or expired state is refused by
 * the SDK with -32602 before any handler runs, and state minted for another
 * tool or prompt is refused here. A single daemon seals with a random
 * per-process key; daemons sharing a PostgreSQL store seal with a key derived
 * from the cluster's secret, so that a retry the balancer sends to another
 * daemon is still recognised there.
 * On a 2025 connection the SDK's legacy shim turns the same result into real
 * elicitation/sampling/roots requests and runs the handler again in place;
 * on 2026-07-28 the SDK answers -32021 when the client did not declare the
 * capability a request needs.
 */
import { randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  type InputRequest,
  type InputRequiredResult,
  type InputResponse,
  inputRequired,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { protocolError } from './protocol-error.js';

/** What the sealed state holds: whose questions these are, and every answer so far. */
interface SealedInput {
  /** `tools/call:<name>` or `prompts/get:<name>`. */
  readonly k: string;
  readonly r: Record<string, InputResponse>;
}

/** How long a client may take to answer one round. */
const STATE_TTL_SECONDS = 600;

export type InputStateCodec = RequestStateCodec<SealedInput>;

/** A requestState codec sealing with `key` (at least 32 bytes): every server that may take a retry needs the same. */
export function inputStateCodec(key: Uint8Array): InputStateCodec {
  return createRequestStateCodec<SealedInput>({ key, ttlSeconds: STATE_TTL_SECONDS });
}

let processCodec: InputStateCodec | undefined;

/** The process's own codec: one random 32-byte key, never persisted (one daemon serves every round). */
export function processInputStateCodec(): InputStateCodec {
  processCodec ??= inputStateCodec(randomBytes(32));
  return processCodec;
}

/** Thrown by requestInput when a question is unanswered; callTool lets it pass (`passThrough`). */
export class InputRequiredSignal extends Error {
  readonly passThrough = true;
  constructor(readonly requests: Readonly<Record<string, InputRequest>>) {
    super('input required');
  }
}

export interface InputChannel {
  requestInput(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, InputResponse>>;
  /** The input_required answer for a run stopped by `signal`. */
  inputRequired(signal: InputRequiredSignal): Promise<InputRequiredResult>;
}

/**
 * The channel for one run of a handler; `key` names the tool or prompt (`tools/call:<name>`),
 * `codec` seals the state (the one the server verifies with).
 */
export function inputChannel(ctx: ServerContext, key: string, codec: InputStateCodec): InputChannel {
  const answers: Record<string, InputResponse> = {};
  const state = ctx.mcpReq.requestState<SealedInput | string>();
  if (state !== undefined) {
    if (typeof state === 'string' || state.k !== key) {
      throw protocolError(
        'INVALID_REQUEST_STATE',
        'Invalid requestState: it was not issued for this request. Send the request again without requestState and inputResponses.',
        { reason: 'invalid_request_state' },
      );
    }
    Object.assign(answers, state.r);
  }
  // Retry answers (untrusted): only object-shaped entries count; anything else is asked again.
  for (const [name, response] of Object.entries(ctx.mcpReq.inputResponses ?? {})) {
    if (typeof response === 'object' && response !== null && !Array.isArray(response))
      answers[name] = response as InputResponse;
  }
  // Questions this run asked, so the sealed state carries their answers and nothing else.
  const asked = new Set<string>();
  return {
    async requestInput(requests) {
      const missing: Record<string, InputRequest> = {};
      const answered: Record<string, InputResponse> = {};
      for (const [name, request] of Object.entries(requests)) {
        asked.add(name);
        const answer = answers[name];
        if (answer === undefined) missing[name] = request;
        else answered[name] = answer;
      }
      if (Object.keys(missing).length > 0) throw new InputRequiredSignal(missing);
      return answered;
    },
    async inputRequired(signal) {
      const carried: Record<string, InputResponse> = {};
      for (const name of asked) {
        const answer = answers[name];
        if (answer !== undefined) carried[name] = answer;
      }
      const requestState = await codec.mint({ k: key, r: carried });
      return inputRequired({ inputRequests: { ...signal.requests }, requestState });
    },
  };
}
