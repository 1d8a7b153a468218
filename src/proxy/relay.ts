/**
 * The relay between one MCP client (stdin/stdout) and the daemon (Unix
 * socket). Lines go both ways byte for byte; they are parsed only to track
 * ids and methods. This class is the I/O: it reads the client, writes both
 * sides, and holds the connection state. The supervisor keeps a daemon there,
 * the replay tells a restarted one what the last knew, the ledger remembers
 * what is owed, and the router sorts the daemon's lines. No request is ever
 * left unanswered. Node built-ins, src/protocol and src/errors.ts only.
 */

import { MoorError } from '../errors.js';
import type { DaemonLink } from '../protocol/daemon-link.js';
import type { Incarnation, SessionHello } from '../protocol/hello.js';
import {
  BAD_ID_MESSAGE,
  idFromHead,
  isJsonRpcId,
  MAX_LINE_BYTES,
  tooLargeMessage,
} from '../protocol/json-shape.js';
import { LineSplitter } from '../protocol/lines.js';
import type { StatePaths } from '../protocol/state-dir.js';
import {
  ChangeFeed,
  type ClientListens,
  DEFAULT_POLL_MS,
  type FeedDaemon,
  type FeedScheduler,
} from './change-feed.js';
import { RequestLedger } from './ledger.js';
import { OwnRequests } from './own-requests.js';
import { loadPrimedAnswers, type PrimedAnswers } from './primed-answers.js';
import { primingFits } from './primed-fit.js';
import { Priming } from './priming.js';
import { SessionReplay } from './replay.js';
import { DaemonLineRouter } from './routing.js';
import { DaemonSupervisor } from './supervisor.js';
import { ToolKnowledge } from './tools.js';
import { ClientOutput, type Id, invalidRequestAnswer, keyOf, type Message, NL } from './wire.js';

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
  /** How often the tool and resource lists are polled when no listen covers them (default 30 s; 0: never). */
  readonly pollMs?: number;
  /** The change feed's poll timer (tests drive it by hand). */
  readonly scheduler?: FeedScheduler;
  /**
   * The build's primed answers, asked for when this relay has just started the daemon itself
   * (default: dist/proxy/primed-answers.json when it fits, primed-answers.ts); undefined: none.
   */
  readonly primed?: () => PrimedAnswers | undefined;
}

export class Relay {
  readonly #options: RelayOptions;
  readonly #fromClient = new LineSplitter(MAX_LINE_BYTES);
  readonly #client: ClientOutput;
  readonly #ledger = new RequestLedger();
  readonly #tools = new ToolKnowledge();
  readonly #ownRequests = new OwnRequests();
  readonly #replay: SessionReplay;
  readonly #router: DaemonLineRouter;
  readonly #supervisor: DaemonSupervisor;
  readonly #feed: ChangeFeed;
  #link: DaemonLink | undefined;
  /** Counts connections (and drops): lines and replays of an older one are ignored. */
  #generation = 0;
  /** 'connected' only once replay is done; before that client lines queue. */
  /**
   * `refused`: the daemon (or the state dir) refuses this session for good; every request is
   * answered with `#refusal` until the client closes, so none meets a silent exit.
   */
  #state: 'connecting' | 'connected' | 'down' | 'refused' | 'closed' = 'connecting';
  #refusal = '';
  #incarnation: Incarnation | undefined;
  #everConnected = false;
  /** Lines for the daemon, written at the end of the client chunk being handled. */
  #daemonOut: Buffer[] = [];
  /** The client's era just became known: the change feed starts after this chunk reached the daemon. */
  #armFeed: 'legacy' | 'modern' | undefined;
  #feedArmed = false;
  /** While the daemon this relay started comes up: the first answers, primed at build time. */
  #priming: Priming | undefined;

  constructor(options: RelayOptions) {
    this.#options = options;
    this.#client = new ClientOutput(options.output);
    const { warn } = options;
    this.#feed = new ChangeFeed({
      daemon: this.#feedDaemon(),
      client: this.#client,
      listens: this.#clientListens(),
      pollMs: options.pollMs ?? DEFAULT_POLL_MS,
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    });
    this.#tools.onClientList = (hash) => this.#feed.clientListed('tools', hash);
    this.#replay = new SessionReplay({
      ledger: this.#ledger,
      tools: this.#tools,
      ownRequests: this.#ownRequests,
      client: this.#client,
      warn,
      toolsSeen: (tools) => this.#feed.listSeen('tools', tools),
    });
    this.#router = new DaemonLineRouter(
      this.#ledger,
      this.#ownRequests,
      this.#tools,
      this.#client,
      this.#feed,
    );
    this.#supervisor = new DaemonSupervisor(options, {
      isClosed: () => this.#state === 'closed' || this.#state === 'refused',
      // Not awaited: if this daemon drops during the replay, the next connect loop must be free to start.
      connected: (link) => void this.#onConnected(link),
      refused: (message) => {
        this.#failEverything(message);
        this.#refusal = message;
        this.#state = 'refused';
        this.#feed.stop();
      },
      failAll: (message) => this.#failEverything(message),
      started: () => this.#onStarted(),
      down: (message) => {
        this.#state = 'down';
        this.#failEverything(message);
      },
    });
  }

  /** Starts reading the client and connecting to the daemon. */
  start(): void {
    const { input } = this.#options;
    input.on('data', (chunk: Buffer) => {
      this.#fromClient.push(
        chunk,
        (line) => this.#onClientLine(line),
        (head) => this.#onOversizedLine(head),
      );
      this.#flushDaemon();
      this.#client.flush();
      if (this.#armFeed !== undefined) {
        this.#feed.arm(this.#armFeed, this.#replay.envelope);
        this.#armFeed = undefined;
        this.#feedArmed = true;
      }
    });
    input.on('end', () => this.#end());
    input.on('close', () => this.#end());
    void this.#supervisor.connect();
  }

  get connected(): boolean {
    return this.#state === 'connected';
  }

  // ---- client → daemon -------------------------------------------------------

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
    if (id !== undefined && id !== null && !isJsonRpcId(id)) {
      // An array or object id names nothing the client could match; keying on it could only do harm.
      this.#client.send(invalidRequestAnswer(null, new MoorError('INVALID_MESSAGE', BAD_ID_MESSAGE)));
      return;
    }
    if (method !== undefined && id !== undefined && id !== null) {
      this.#onClientRequest(message as Message & { id: Id; method: string }, line);
      return;
    }
    if (method === 'notifications/initialized') {
      this.#replay.observeInitialized(line);
      if (!this.#feedArmed) this.#armFeed = 'legacy';
    }
    if (method === 'notifications/cancelled') {
      const requestId = message.params?.requestId;
      // A request that never reached a daemon has nothing to cancel there.
      if (isJsonRpcId(requestId) && this.#ledger.cancel(requestId)) return;
    }
    // Responses to the daemon's own requests (sampling, elicitation, ping) only make sense on the same connection.
    if (method === undefined && this.#state !== 'connected') return;
    this.#toDaemon(line);
  }

  /** A line over MAX_LINE_BYTES: answered here (its id read from its head), never forwarded. */
  #onOversizedLine(head: Buffer): void {
    const refusal = new MoorError('MESSAGE_TOO_LARGE', tooLargeMessage(MAX_LINE_BYTES));
    this.#client.send(invalidRequestAnswer(idFromHead(head), refusal));
  }

  #onClientRequest(message: Message & { id: Id; method: string }, line: Buffer): void {
    if (this.#state === 'refused') {
      this.#client.fail(message.id, this.#refusal);
      return;
    }
    const key = keyOf(message.id);
    this.#replay.observeRequest(message, key);
    if (this.#state === 'down') {
      // Look again: a daemon another proxy started may serve now. With the budget spent the look
      // starts nothing, and when nothing answers this request gets the down message at once.
      this.#state = 'connecting';
      void this.#supervisor.connect();
    }
    if (!this.#feedArmed && this.#replay.era === 'modern') this.#armFeed ??= 'modern';
    if (this.#state === 'connecting' && this.#answerPrimed(message, line)) return;
    if (message.method === 'subscriptions/listen') {
      this.#ledger.openListen(key, message.id, line);
      this.#toDaemon(line, key);
      return;
    }
    this.#ledger.trackRequest(key, message, line);
    this.#toDaemon(line, key);
  }

  /** Answers from the primed answers when they stand for the daemon; true when answered. */
  #answerPrimed(message: Message & { id: Id; method: string }, line: Buffer): boolean {
    const answer = this.#priming?.answer(message);
    if (answer === undefined) return false;
    this.#client.send(answer.line);
    // Learnt as from the daemon's own answer: the list the client was told, for the change feed.
    if (answer.tools !== undefined) this.#tools.learn(answer.tools, line);
    return true;
  }

  /**
   * This relay started the daemon: before it ever connected, its first answers may come from the
   * build's primed answers. Requests that came before the start are looked at again, in order.
   */
  #onStarted(): void {
    if (this.#everConnected || this.#priming !== undefined) return;
    const { paths, hello } = this.#options;
    const answers = this.#options.primed
      ? this.#options.primed()
      : primingFits(paths, hello)
        ? loadPrimedAnswers(hello.client.version)
        : undefined;
    if (answers === undefined) return;
    this.#priming = new Priming(answers);
    this.#ledger.answerQueued((line) => {
      const message = JSON.parse(line.toString('utf8')) as Message & { id: Id; method: string };
      return this.#answerPrimed(message, line);
    });
    this.#client.flush();
  }

  #toDaemon(line: Buffer, key?: string): void {
    if (this.#state !== 'connected' || !this.#link) {
      this.#ledger.enqueue(line, key);
      return;
    }
    if (key !== undefined) this.#ledger.markSent(key, this.#generation);
    this.#daemonOut.push(line, NL);
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

  // ---- the connection --------------------------------------------------------

  async #onConnected(link: DaemonLink): Promise<void> {
    const generation = ++this.#generation;
    this.#link = link;
    const reconnect = this.#everConnected;
    this.#everConnected = true;
    const previous = this.#incarnation;
    this.#incarnation = link.incarnation;
    const splitter = new LineSplitter();
    const onData = (chunk: Buffer) => {
      splitter.push(chunk, (line) => {
        if (generation === this.#generation) this.#router.route(line);
      });
      this.#client.flush();
    };
    link.socket.on('data', onData);
    link.socket.on('error', () => {});
    link.socket.on('close', () => this.#onDrop(generation));
    if (link.rest.length > 0) onData(link.rest);
    link.socket.resume();

    if (reconnect && previous && previous.version !== link.incarnation.version) {
      this.#options.warn(
        `moor: the daemon is now version ${link.incarnation.version} (was ${previous.version})`,
      );
    }
    const isCurrent = () => generation === this.#generation;
    if (reconnect) await this.#replay.run(link, generation, isCurrent);
    else if (this.#priming?.answeredAny) await this.#replay.tellPrimed(link, isCurrent);
    if (generation !== this.#generation || this.#isClosed()) return;
    this.#priming = undefined;
    this.#state = 'connected';
    for (const { line, key } of this.#ledger.takeQueue()) this.#toDaemon(line, key);
    this.#flushDaemon();
    this.#client.flush();
    this.#feed.connected();
  }

  #onDrop(generation: number): void {
    if (generation !== this.#generation || this.#state === 'closed') return;
    this.#link = undefined;
    this.#generation++;
    this.#feed.disconnected();
    this.#ownRequests.abandonAll();
    // The old daemon's late answers can no longer come; forget what we were waiting to drop.
    this.#ledger.cancelled.clear();
    this.#daemonOut = [];
    this.#state = 'connecting';
    void this.#supervisor.connect();
  }

  /** The change feed's requests go on the current connection, once it is caught up. */
  #feedDaemon(): FeedDaemon {
    const write = (): ((line: string) => void) | undefined => {
      const socket = this.#link?.socket;
      if (this.#state !== 'connected' || !socket || socket.destroyed) return undefined;
      return (line) => {
        if (!socket.destroyed) socket.write(`${line}\n`);
      };
    };
    return {
      request: (message) => {
        const to = write();
        return to ? this.#ownRequests.send(to, message) : Promise.resolve(undefined);
      },
      open: (message) => {
        const to = write();
        return to ? this.#ownRequests.open(to, message) : undefined;
      },
    };
  }

  #clientListens(): ClientListens {
    const { listens } = this.#ledger;
    return {
      honouring: (kind) =>
        [...listens]
          .filter(([, listen]) => (kind === 'tools' ? listen.tools : listen.resources))
          .map(([key, listen]) => ({ key, id: listen.id })),
      has: (key) => listens.has(key),
    };
  }

  #failEverything(message: string): void {
    for (const id of this.#ledger.drain()) this.#client.fail(id, message);
  }

  /** Read through a method so TypeScript does not narrow it across awaits. */
  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #end(): void {
    if (this.#state === 'closed') return;
    const refused = this.#state === 'refused';
    this.#state = 'closed';
    this.#feed.stop();
    this.#client.flush();
    this.#link?.socket.end();
    this.#options.onEnd(refused ? 1 : 0);
  }
}
