/**
 * The supervising relay between one MCP client (stdin/stdout) and the daemon
 * (Unix socket). Lines go both ways byte for byte; they are parsed only to
 * track ids and methods. When the daemon goes away the relay reconnects
 * (starting the daemon when needed, within a restart budget) and then:
 * replays a legacy client's initialize (swallowing the duplicate answer),
 * re-sends open listen streams, re-sends read-only requests (and tasks/get,
 * tasks/cancel) that were in flight and answers every other one with a clear
 * -32051 error. No request is
 * ever left unanswered. Node built-ins and src/protocol only.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { connectDaemon, type DaemonLink, spawnDaemon } from '../protocol/daemon-link.js';
import type { Incarnation, SessionHello } from '../protocol/hello.js';
import { LineSplitter } from '../protocol/lines.js';
import { isAliveProcess as isAlive, liveLockOwner } from '../protocol/process-liveness.js';
import type { StatePaths } from '../protocol/state-dir.js';

type Id = string | number;
type Message = {
  id?: Id | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

const NL = Buffer.from('\n');
const RESULT_PREFIX = Buffer.from('{"result":');
const RESULT_TAIL = /"jsonrpc":"2\.0","id":(-?\d+|"[^"]*")\}$/;
const UNAVAILABLE = -32051;
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';
const ENVELOPE_KEYS = [
  PROTOCOL_VERSION_KEY,
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
];

/** Methods that read only: safe to send again to a restarted daemon. */
export const READ_ONLY_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'server/discover',
  'completion/complete',
  'ping',
]);

/**
 * Durable tasks (io.modelcontextprotocol/tasks) outlive the daemon: reading a
 * task or asking it to stop is safe to send again to a restarted daemon (the
 * same session key owns the task there). tasks/update is not (its answers
 * may have been taken): it gets the -32051 "may or may not have completed".
 * tasks/* are relayed like any request, never held behind other calls (the
 * daemon's admission gate lets them through as well).
 */
export const REPLAYABLE_TASK_METHODS: ReadonlySet<string> = new Set([
  'tasks/get',
  'tasks/cancel',
  'tasks/list',
]);

export const RESTARTED_MESSAGE = 'the daemon restarted while this call ran; it may or may not have completed';

export const BACKOFF_START_MS = 50;
export const BACKOFF_MAX_MS = 2000;
/** How long one started daemon has to answer. */
export const START_WAIT_MS = 5000;
/** How much longer to wait for a live daemon that holds the lock but no longer answers (a draining one). */
export const DRAIN_WAIT_MS = 12_000;
export const RESTART_BUDGET = 5;
export const RESTART_WINDOW_MS = 30_000;

export interface RelayOptions {
  readonly paths: StatePaths;
  readonly hello: SessionHello;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** One line for the user (stderr). */
  readonly warn: (line: string) => void;
  /** Called once, when the client's input ended and the relay has shut its side. */
  readonly onEnd: (code: number) => void;
  /** Starts the daemon (default: `moor daemon run` detached); returns its pid when known. */
  readonly spawn?: () => number | undefined;
  /** How long one started daemon has to answer (default START_WAIT_MS). */
  readonly startWaitMs?: number;
}

interface Pending {
  readonly id: Id;
  readonly method: string;
  readonly line: Buffer;
  readonly tool: string | undefined;
  /** Connection generation it was written on; 0 while queued. */
  sentOn: number;
  /** A daemon that was going away refused it at the door: it never ran, so it may go to the next one. */
  notRun: boolean;
}

interface Listen {
  readonly id: Id;
  readonly line: Buffer;
  /** The daemon acknowledged it with toolsListChanged honoured. */
  tools: boolean;
  /** An acknowledgement for this id already reached the client: a replay's is swallowed. */
  acked: boolean;
  sentOn: number;
}

function keyOf(id: Id): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

function hasModernClaim(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as Record<string, unknown> | undefined;
  return typeof meta?.[PROTOCOL_VERSION_KEY] === 'string';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves when the socket file appears in `dir` (inotify where available), or after `ms`. */
function socketOrTimeout(dir: string, socketName: string, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let watcher: fs.FSWatcher | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    try {
      watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (name === socketName) done();
      });
      watcher.on('error', () => {});
    } catch {
      // no watching here: the timeout alone paces the polls
    }
  });
}

export class Relay {
  readonly #o: RelayOptions;
  readonly #fromClient = new LineSplitter();
  #link: DaemonLink | undefined;
  #generation = 0;
  /** 'connected' only once replay is done; before that client lines queue. */
  #state: 'connecting' | 'connected' | 'down' | 'closed' = 'connecting';
  #connecting: Promise<void> | undefined;
  readonly #pending = new Map<string, Pending>();
  readonly #listens = new Map<string, Listen>();
  readonly #cancelled = new Set<string>();
  /** Lines waiting for a connection, in arrival order. */
  #queue: Array<{ line: Buffer; key?: string }> = [];
  readonly #private = new Map<string, (message: Message | undefined) => void>();
  #nextPrivate = 1;
  #era: 'legacy' | 'modern' | undefined;
  #initialize: Message | undefined;
  #initializeKey: string | undefined;
  #initialized: Buffer | undefined;
  #envelope: Record<string, unknown> | undefined;
  readonly #readOnlyTools = new Map<string, boolean>();
  #toolsHash: string | undefined;
  #incarnation: Incarnation | undefined;
  #starts: number[] = [];
  #everConnected = false;
  #clientOut: Buffer[] = [];

  constructor(options: RelayOptions) {
    this.#o = options;
  }

  /** Starts reading the client and connecting to the daemon. */
  start(): void {
    const { input } = this.#o;
    input.on('data', (chunk: Buffer) => {
      this.#fromClient.push(chunk, (line) => this.#onClientLine(line));
      this.#flushDaemon();
      this.#flushClient();
    });
    input.on('end', () => this.#end());
    input.on('close', () => this.#end());
    void this.#connect();
  }

  get connected(): boolean {
    return this.#state === 'connected';
  }

  // ---- client → daemon -------------------------------------------------------

  #daemonOut: Buffer[] = [];

  #onClientLine(line: Buffer): void {
    let message: Message | undefined;
    try {
      const parsed: unknown = JSON.parse(line.toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        message = parsed as Message;
    } catch {
      // not JSON: the daemon answers it with a parse error
    }
    if (message === undefined) {
      this.#toDaemon(line);
      return;
    }
    const { method, id } = message;
    if (method !== undefined && id !== undefined && id !== null) {
      this.#onClientRequest(message as Message & { id: Id; method: string }, line);
      return;
    }
    if (method === 'notifications/initialized') this.#initialized = line;
    if (method === 'notifications/cancelled') {
      const requestId = message.params?.requestId as Id | undefined;
      if (requestId !== undefined) {
        const key = keyOf(requestId);
        const pending = this.#pending.get(key);
        if (pending) {
          this.#pending.delete(key);
          if (pending.sentOn === 0) {
            this.#queue = this.#queue.filter((q) => q.key !== key);
            return; // never reached a daemon: nothing to cancel there
          }
          this.#cancelled.add(key);
        }
        this.#listens.delete(key);
      }
    }
    // Responses to the daemon's own requests (sampling, elicitation, ping) only make sense on the same connection.
    if (method === undefined && this.#state !== 'connected') return;
    this.#toDaemon(line);
  }

  #onClientRequest(message: Message & { id: Id; method: string }, line: Buffer): void {
    const key = keyOf(message.id);
    if (this.#era !== 'legacy' && hasModernClaim(message.params)) {
      this.#era = 'modern';
      // The envelope for the proxy's own requests to a restarted daemon (the client's first one is enough).
      if (this.#envelope === undefined) {
        const meta = message.params?._meta as Record<string, unknown>;
        this.#envelope = Object.fromEntries(ENVELOPE_KEYS.filter((k) => k in meta).map((k) => [k, meta[k]]));
      }
    } else if (message.method === 'initialize') {
      this.#era = 'legacy';
      this.#initialize = message;
      this.#initializeKey = key;
    }
    if (message.method === 'subscriptions/listen') {
      this.#listens.set(key, { id: message.id, line, tools: false, acked: false, sentOn: 0 });
      if (this.#state === 'down') {
        this.#listens.delete(key);
        this.#answerError(message.id, this.#downMessage());
        return;
      }
      this.#toDaemon(line, key);
      return;
    }
    const tool =
      message.method === 'tools/call' && typeof message.params?.name === 'string'
        ? message.params.name
        : undefined;
    this.#pending.set(key, { id: message.id, method: message.method, line, tool, sentOn: 0, notRun: false });
    this.#cancelled.delete(key);
    if (this.#state === 'down') {
      if (this.#budgetAllows()) {
        this.#state = 'connecting';
        void this.#connect();
      } else {
        this.#pending.delete(key);
        this.#answerError(message.id, this.#downMessage());
        return;
      }
    }
    this.#toDaemon(line, key);
  }

  #toDaemon(line: Buffer, key?: string): void {
    if (this.#state !== 'connected' || !this.#link) {
      this.#queue.push(key === undefined ? { line } : { line, key });
      return;
    }
    if (key !== undefined) this.#markSent(key);
    this.#daemonOut.push(line, NL);
  }

  #markSent(key: string): void {
    const pending = this.#pending.get(key);
    if (pending) pending.sentOn = this.#generation;
    const listen = this.#listens.get(key);
    if (listen) listen.sentOn = this.#generation;
  }

  #flushDaemon(): void {
    if (this.#daemonOut.length === 0) return;
    const out = this.#daemonOut.length === 2 ? this.#daemonOut : [Buffer.concat(this.#daemonOut)];
    this.#daemonOut = [];
    const socket = this.#link?.socket;
    if (!socket || socket.destroyed) return;
    if (out.length === 2) socket.write(Buffer.concat(out));
    else socket.write(out[0] as Buffer);
  }

  // ---- daemon → client -------------------------------------------------------

  #onDaemonLine(line: Buffer, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#fastForward(line)) return;
    let message: Message | undefined;
    try {
      message = JSON.parse(line.toString('utf8')) as Message;
    } catch {
      this.#toClient(line);
      return;
    }
    if (typeof message !== 'object' || message === null) {
      this.#toClient(line);
      return;
    }
    if (message.method !== undefined) {
      if (message.method === 'notifications/subscriptions/acknowledged') {
        const sid = (message.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_KEY] as
          | Id
          | undefined;
        const listen = sid === undefined ? undefined : this.#listens.get(keyOf(sid));
        if (listen) {
          listen.tools =
            (message.params?.notifications as { toolsListChanged?: boolean } | undefined)
              ?.toolsListChanged === true;
          if (listen.acked) return; // the replay's acknowledgement: the client already has one
          listen.acked = true;
        }
      }
      this.#toClient(line);
      return;
    }
    if (message.id === undefined || message.id === null) {
      this.#toClient(line);
      return;
    }
    const key = keyOf(message.id);
    const mine = this.#private.get(key);
    if (mine) {
      this.#private.delete(key);
      mine(message);
      return;
    }
    const listen = this.#listens.get(key);
    if (listen) {
      // A listen's result means the daemon is closing this connection: it is re-sent after reconnecting.
      if (message.result !== undefined && listen.acked) return;
      this.#listens.delete(key);
      this.#toClient(line);
      return;
    }
    if (this.#cancelled.delete(key)) return;
    const pending = this.#pending.get(key);
    if (pending) {
      const data = message.error?.data as { executed?: unknown } | undefined;
      if (message.error?.code === UNAVAILABLE && data !== undefined) {
        // Refused at the door of a daemon that is going away (never ran), or interrupted while read-only: ask the next one.
        if (data.executed === false || (data.executed === 'unknown' && this.#replayable(pending) === true)) {
          pending.notRun = data.executed === false;
          pending.sentOn = -1;
          return;
        }
      }
      this.#pending.delete(key);
      if (pending.method === 'tools/list' && message.result !== undefined)
        this.#learnTools(message.result, pending);
    }
    this.#toClient(line);
  }

  /**
   * The hot path: an ordinary result, as the SDK writes it
   * (`{"result":…,"jsonrpc":"2.0","id":ID}`), is forwarded after reading only
   * its id from the tail; a full parse is needed only for errors, tool lists,
   * listens, and our own requests.
   */
  #fastForward(line: Buffer): boolean {
    if (line.length < 40 || line[2] !== 114 /* r */ || !line.subarray(0, 10).equals(RESULT_PREFIX))
      return false;
    const tail = line.subarray(Math.max(0, line.length - 160)).toString('latin1');
    const match = RESULT_TAIL.exec(tail);
    if (!match) return false;
    const raw = match[1] as string;
    let id: Id;
    if (raw.startsWith('"')) {
      if (raw.includes('\\')) return false;
      id = raw.slice(1, -1);
    } else id = Number(raw);
    const key = keyOf(id);
    const pending = this.#pending.get(key);
    if (!pending || pending.method === 'tools/list' || this.#private.has(key) || this.#listens.has(key))
      return false;
    if (this.#cancelled.has(key)) return false;
    this.#pending.delete(key);
    this.#toClient(line);
    return true;
  }

  #toClient(line: Buffer): void {
    this.#clientOut.push(line, NL);
  }

  #flushClient(): void {
    if (this.#clientOut.length === 0) return;
    const out = Buffer.concat(this.#clientOut);
    this.#clientOut = [];
    this.#o.output.write(out);
  }

  #answerError(id: Id, message: string, data?: unknown): void {
    const error = { code: UNAVAILABLE, message, ...(data === undefined ? {} : { data }) };
    this.#toClient(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error })));
    this.#flushClient();
  }

  // ---- tools: annotations and list hash --------------------------------------

  #learnTools(result: Record<string, unknown>, request?: Pending): void {
    const tools = result.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Array<{ name?: unknown; annotations?: { readOnlyHint?: unknown } }>) {
      if (typeof tool.name === 'string')
        this.#readOnlyTools.set(tool.name, tool.annotations?.readOnlyHint === true);
    }
    const paged = request !== undefined && /"cursor"\s*:/.test(request.line.toString('utf8'));
    if (!paged && result.nextCursor === undefined) this.#toolsHash = hashTools(tools);
  }

  /** true / false, or undefined when the tool's annotations are not known yet. */
  #replayable(pending: Pending): boolean | undefined {
    if (pending.method === 'initialize') return true;
    if (READ_ONLY_METHODS.has(pending.method) || REPLAYABLE_TASK_METHODS.has(pending.method)) return true;
    if (pending.method !== 'tools/call' || pending.tool === undefined) return false;
    return this.#readOnlyTools.get(pending.tool);
  }

  // ---- connection management -------------------------------------------------

  #budgetAllows(now = Date.now()): boolean {
    this.#starts = this.#starts.filter((t) => now - t < RESTART_WINDOW_MS);
    return this.#starts.length < RESTART_BUDGET;
  }

  #downMessage(): string {
    return `moor: the daemon could not be started (${RESTART_BUDGET} attempts in ${RESTART_WINDOW_MS / 1000} s); see ${this.#o.paths.log}. Retry later, or run \`moor stdio --direct\`.`;
  }

  /** The pid of the daemon this relay last started. */
  #spawned: number | undefined;

  #spawn(): void {
    this.#starts.push(Date.now());
    this.#spawned = this.#o.spawn ? this.#o.spawn() : spawnDaemon(this.#o.paths);
  }

  /** The daemon we started died (or lost the lock and exited) and no live daemon holds the lock. */
  #startFailedEarly(): boolean {
    if (this.#spawned === undefined || isAlive(this.#spawned)) return false;
    return liveLockOwner(this.#o.paths.lock) === undefined;
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#connectLoop().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connectLoop(): Promise<void> {
    let delay = BACKOFF_START_MS;
    let spawnedAt: number | undefined;
    let waitLimit = this.#o.startWaitMs ?? START_WAIT_MS;
    for (;;) {
      if (this.#state === 'closed') return;
      const outcome = await connectDaemon(this.#o.paths.socket, this.#o.hello);
      if (this.#isClosed()) {
        if (outcome.kind === 'connected') outcome.link.socket.destroy();
        return;
      }
      if (outcome.kind === 'connected') {
        // Not awaited: if this daemon drops during the replay, the next connect loop must be free to start.
        void this.#onConnected(outcome.link);
        return;
      }
      if (outcome.kind === 'refused') {
        this.#o.warn(`moor: the daemon refused this session: ${outcome.message}`);
        this.#failEverything(`moor: the daemon refused this session: ${outcome.message}`);
        this.#state = 'closed';
        this.#o.onEnd(1);
        return;
      }
      const now = Date.now();
      const startWaitMs = this.#o.startWaitMs ?? START_WAIT_MS;
      // A daemon we started that is already gone (killed, crashed) is not waited for: start another.
      if (spawnedAt !== undefined && now - spawnedAt < waitLimit && this.#startFailedEarly())
        spawnedAt = undefined;
      if (spawnedAt !== undefined && now - spawnedAt >= waitLimit && waitLimit === startWaitMs) {
        // The lock is held by a live daemon that does not answer: most likely one finishing a graceful
        // shutdown (its grace period). Wait for it once, longer, before calling the start a failure.
        const holder = liveLockOwner(this.#o.paths.lock);
        if (holder !== undefined && holder !== this.#spawned) {
          this.#o.warn(`moor: waiting for the daemon (pid ${holder}) to finish shutting down`);
          waitLimit = startWaitMs + DRAIN_WAIT_MS;
        }
      }
      if (spawnedAt === undefined || now - spawnedAt >= waitLimit) {
        if (spawnedAt !== undefined) {
          const message = `moor: the daemon did not answer within ${Math.round((now - spawnedAt) / 1000)} s of starting; see ${this.#o.paths.log}`;
          this.#o.warn(message);
          this.#failEverything(message);
        }
        waitLimit = startWaitMs;
        if (!this.#budgetAllows(now)) {
          this.#o.warn(this.#downMessage());
          this.#state = 'down';
          this.#failEverything(this.#downMessage());
          return;
        }
        this.#spawn();
        spawnedAt = Date.now();
        await this.#waitForSocket(BACKOFF_START_MS);
        continue;
      }
      // A daemon we started is on its way: look as soon as its socket appears. Otherwise back off.
      if (spawnedAt !== undefined) await this.#waitForSocket(BACKOFF_START_MS);
      else await sleep(delay);
      delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    }
  }

  #waitForSocket(ms: number): Promise<void> {
    const { socket } = this.#o.paths;
    return socketOrTimeout(path.dirname(socket), path.basename(socket), ms);
  }

  async #onConnected(link: DaemonLink): Promise<void> {
    const generation = ++this.#generation;
    this.#link = link;
    const reconnect = this.#everConnected;
    this.#everConnected = true;
    const previous = this.#incarnation;
    this.#incarnation = link.incarnation;
    const splitter = new LineSplitter();
    const onData = (chunk: Buffer) => {
      splitter.push(chunk, (line) => this.#onDaemonLine(line, generation));
      this.#flushClient();
    };
    link.socket.on('data', onData);
    link.socket.on('error', () => {});
    link.socket.on('close', () => this.#onDrop(generation));
    if (link.rest.length > 0) onData(link.rest);
    link.socket.resume();

    if (reconnect && previous && previous.version !== link.incarnation.version) {
      this.#o.warn(`moor: the daemon is now version ${link.incarnation.version} (was ${previous.version})`);
    }
    if (reconnect) await this.#replay(link, generation);
    if (generation !== this.#generation || this.#state === 'closed') return;
    this.#state = 'connected';
    const queued = this.#queue;
    this.#queue = [];
    for (const { line, key } of queued) this.#toDaemon(line, key);
    this.#flushDaemon();
    this.#flushClient();
  }

  /** What a new daemon must see before the client's traffic resumes. */
  async #replay(link: DaemonLink, generation: number): Promise<void> {
    const write = (line: Buffer | string) => {
      if (!link.socket.destroyed)
        link.socket.write(typeof line === 'string' ? `${line}\n` : Buffer.concat([line, NL]));
    };
    // 1. A legacy connection's handshake (unless the client's own initialize is still waiting: it is re-sent below).
    if (this.#era === 'legacy' && this.#initialize && !this.#pending.has(this.#initializeKey ?? '')) {
      const answer = await this.#privateRequest(write, { ...this.#initialize, id: '' });
      if (generation !== this.#generation) return;
      if (answer?.error)
        this.#o.warn(`moor: the restarted daemon refused the replayed initialize: ${answer.error.message}`);
      if (this.#initialized) write(this.#initialized);
    }
    // 2. Open listen streams.
    for (const [key, listen] of this.#listens) {
      write(listen.line);
      this.#markSent(key);
    }
    // 3. The tool list: annotations for interrupted calls, and whether it changed.
    const interrupted = [...this.#pending.entries()].filter(
      ([, p]) => p.sentOn !== 0 && p.sentOn !== generation,
    );
    const unknown = interrupted.some(([, p]) => this.#replayable(p) === undefined);
    if (unknown || this.#toolsHash !== undefined) {
      const before = this.#toolsHash;
      const params = this.#era === 'modern' && this.#envelope ? { _meta: this.#envelope } : undefined;
      const answer = await this.#privateRequest(write, {
        method: 'tools/list',
        ...(params ? { params } : {}),
      });
      if (generation !== this.#generation) return;
      if (answer?.result) {
        this.#learnTools(answer.result);
        if (before !== undefined && this.#toolsHash !== before) this.#emitToolsChanged();
      }
    }
    // 4. Requests in flight at the drop: read-only ones again, every other one a clear error.
    for (const [key, pending] of interrupted) {
      if (pending.notRun || this.#replayable(pending) === true) {
        pending.notRun = false;
        write(pending.line);
        pending.sentOn = generation;
      } else {
        this.#pending.delete(key);
        this.#answerError(pending.id, RESTARTED_MESSAGE);
      }
    }
  }

  #emitToolsChanged(): void {
    if (this.#era === 'legacy') {
      this.#toClient(Buffer.from('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'));
    } else if (this.#era === 'modern') {
      for (const listen of this.#listens.values()) {
        if (!listen.tools) continue;
        const params = { _meta: { [SUBSCRIPTION_ID_KEY]: listen.id } };
        this.#toClient(
          Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params })),
        );
      }
    }
    this.#flushClient();
  }

  #privateRequest(
    write: (line: string) => void,
    message: Message,
    timeoutMs = START_WAIT_MS,
  ): Promise<Message | undefined> {
    const id = `moor-proxy-${this.#nextPrivate++}`;
    const key = keyOf(id);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#private.delete(key);
        resolve(undefined);
      }, timeoutMs);
      timer.unref();
      this.#private.set(key, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      write(JSON.stringify({ jsonrpc: '2.0', ...message, id }));
    });
  }

  #onDrop(generation: number): void {
    if (generation !== this.#generation || this.#state === 'closed') return;
    this.#link = undefined;
    this.#generation++;
    for (const resolve of this.#private.values()) resolve(undefined);
    this.#private.clear();
    // The old daemon's late answers can no longer come; forget what we were waiting to drop.
    this.#cancelled.clear();
    this.#daemonOut = [];
    this.#state = 'connecting';
    void this.#connect();
  }

  #failEverything(message: string): void {
    for (const pending of this.#pending.values()) this.#answerError(pending.id, message);
    this.#pending.clear();
    for (const listen of this.#listens.values()) this.#answerError(listen.id, message);
    this.#listens.clear();
    this.#queue = [];
  }

  /** Read through a method so TypeScript does not narrow it across awaits. */
  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #end(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#flushClient();
    this.#link?.socket.end();
    this.#o.onEnd(0);
  }
}

export function hashTools(tools: unknown): string {
  return createHash('sha256').update(JSON.stringify(tools)).digest('hex');
}

export type { net };
