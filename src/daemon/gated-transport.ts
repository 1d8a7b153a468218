/**
 * The socket connection's transport as the SDK sees it: a LineTransport
 * over the socket, wrapped so every incoming JSON-RPC request passes the
 * daemon-wide admission gate before the server sees it. A refused request is
 * answered at once (-32050 busy, -32051 shutting down) and never reaches the
 * server; an admitted one holds its slot until its response goes out (or the
 * client cancels it). At shutdown the requests still running are answered
 * with -32051 and their late results dropped.
 */
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { MoorError } from '../errors.js';
import { type AdmissionGate, holdsAdmission, INTERRUPTED, NOT_ADMITTED } from '../host/admission.js';
import { isToolErrorResponse, type Outcome, TOOL_ERROR_TYPE } from '../observe/labels.js';
import type { RequestObserver } from '../observe/observer.js';
import type { TraceSpan } from '../observe/tracer.js';
import { traceIdOf, withTrace } from '../protocol/trace.js';

type Id = string | number;

interface Running {
  readonly id: Id;
  readonly method: string;
  readonly release: () => void;
  readonly started: number;
  readonly trace: string | undefined;
}

/** A request being observed (metrics, tracing): its label slot and span. */
interface Observed {
  readonly slot: number;
  readonly span: TraceSpan | undefined;
}

/** Who observes this connection's requests, and the session they belong to. */
export interface ConnectionObservation {
  readonly observer: RequestObserver;
  readonly sessionKey: string | undefined;
}

function keyOf(id: Id): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

function isRequest(m: JSONRPCMessage): m is JSONRPCMessage & { id: Id; method: string } {
  return 'method' in m && 'id' in m && m.id !== undefined && m.id !== null;
}

function isResponse(m: JSONRPCMessage): m is JSONRPCMessage & { id: Id } {
  return !('method' in m) && 'id' in m && m.id !== undefined && m.id !== null;
}

export class GatedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly #inner: Transport;
  readonly #gate: AdmissionGate;
  readonly #log: Logger;
  readonly #running = new Map<string, Running>();
  /** Ids this wrapper answered itself (interrupted): the server's late answer is dropped. */
  readonly #answered = new Set<string>();

  readonly #onFinished: (() => void) | undefined;
  readonly #observation: ConnectionObservation | undefined;
  /** Requests being observed, admitted or not (listen streams, task polls), by id. */
  readonly #observed = new Map<string, Observed>();

  constructor(
    inner: Transport,
    gate: AdmissionGate,
    log: Logger,
    onFinished?: () => void,
    observation?: ConnectionObservation,
  ) {
    this.#inner = inner;
    this.#gate = gate;
    this.#log = log;
    this.#onFinished = onFinished;
    this.#observation = observation;
  }

  get inFlight(): number {
    return this.#running.size;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.#receive(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#releaseAll();
      this.#endAllObserved();
      this.onclose?.();
    };
    await this.#inner.start();
  }

  setProtocolVersion = (version: string): void => {
    this.#inner.setProtocolVersion?.(version);
  };

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequest(message)) {
      const key = keyOf(message.id);
      if (holdsAdmission(message.method)) {
        const ticket = this.#gate.tryEnter();
        if (typeof ticket !== 'function') {
          this.#observation?.observer.refused('socket', message, ticket, this.#observation.sessionKey);
          this.#refuse(message, ticket);
          return;
        }
        this.#running.get(key)?.release();
        this.#answered.delete(key);
        this.#running.set(key, {
          id: message.id,
          method: message.method,
          release: ticket,
          started: performance.now(),
          trace: traceIdOf(message),
        });
      }
      const observation = this.#observation;
      if (observation !== undefined) {
        this.#endObserved(key, 'cancelled');
        this.#observed.set(key, {
          slot: observation.observer.begin('socket', message),
          span: observation.observer.span('socket', message, observation.sessionKey),
        });
      }
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: Id } | undefined)?.requestId;
      if (requestId !== undefined) {
        this.#finish(keyOf(requestId), 'cancelled');
        this.#endObserved(keyOf(requestId), 'cancelled');
      }
    }
    this.onmessage?.(message, extra);
  }

  #endObserved(key: string, outcome: Outcome, errorType?: string): void {
    const observed = this.#observed.get(key);
    if (observed === undefined) return;
    this.#observed.delete(key);
    this.#observation?.observer.end(observed.slot, outcome, observed.span, errorType);
  }

  #refuse(message: { id: Id; method: string }, why: 'busy' | 'shutting-down'): void {
    const trace = traceIdOf(message);
    const refusal =
      why === 'busy'
        ? new MoorError(
            'BUSY',
            `moor daemon is busy: ${this.#gate.inFlight} requests in flight; retry shortly`,
            NOT_ADMITTED,
          )
        : new MoorError('SHUTTING_DOWN', 'moor daemon is shutting down', NOT_ADMITTED);
    this.#log.warn(
      { method: message.method, refused: why },
      withTrace(`refused ${message.method}: ${why}`, trace),
    );
    this.#inner
      .send({ jsonrpc: '2.0', id: message.id, error: refusal.toJsonRpc() })
      .catch((e) => this.onerror?.(e as Error));
  }

  #finish(key: string, outcome: string): void {
    const running = this.#running.get(key);
    if (!running) return;
    this.#running.delete(key);
    running.release();
    this.#onFinished?.();
    if (this.#log.isLevelEnabled('debug')) {
      const ms = Math.round((performance.now() - running.started) * 1000) / 1000;
      this.#log.debug(
        { method: running.method, id: running.id, ms, outcome },
        withTrace(`${running.method} ${outcome}`, running.trace),
      );
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      const key = keyOf(message.id);
      if (this.#answered.delete(key)) return;
      this.#finish(key, 'error' in message ? 'error' : 'ok');
      if (this.#observation !== undefined) {
        const error = 'error' in message ? (message.error as { code?: unknown }) : undefined;
        if (error !== undefined) this.#endObserved(key, 'error', String(error.code));
        else if (isToolErrorResponse(message)) this.#endObserved(key, 'error', TOOL_ERROR_TYPE);
        else this.#endObserved(key, 'ok');
      }
    }
    return this.#inner.send(message, options);
  }

  /** Answers every request still running with -32051; their late results are dropped. */
  async interruptAll(message: string): Promise<void> {
    const running = [...this.#running.entries()];
    for (const [key, entry] of running) {
      this.#running.delete(key);
      this.#answered.add(key);
      entry.release();
      this.#endObserved(key, 'error', 'interrupted');
      this.#log.warn(
        { method: entry.method, id: entry.id },
        withTrace(`interrupted ${entry.method}`, entry.trace),
      );
      await this.#inner
        .send({
          jsonrpc: '2.0',
          id: entry.id,
          error: new MoorError('INTERRUPTED', message, INTERRUPTED).toJsonRpc(),
        })
        .catch(() => {});
    }
  }

  /** The connection ended: what was still open (listen streams, abandoned calls) ends as cancelled. */
  #endAllObserved(): void {
    for (const key of [...this.#observed.keys()]) this.#endObserved(key, 'cancelled');
  }

  #releaseAll(): void {
    for (const entry of this.#running.values()) entry.release();
    this.#running.clear();
  }

  async close(): Promise<void> {
    await this.#inner.close();
  }
}
