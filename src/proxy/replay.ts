/**
 * What a restarted daemon must be told before the client's traffic resumes,
 * and what becomes of the requests it interrupted. A legacy client's
 * initialize is replayed (its duplicate answer swallowed), open listen
 * streams are re-opened, and an interrupted request is sent again when it
 * only reads (read-only methods, readOnlyHint tools, tasks/get and
 * tasks/cancel); every other one is answered -32051, since it may or may not
 * have completed. A tool list that changed meanwhile goes to the change feed,
 * which tells the client once.
 */
import type { DaemonLink } from '../protocol/daemon-link.js';
import type { PendingRequest, RequestLedger } from './ledger.js';
import type { OwnRequests } from './own-requests.js';
import type { ToolKnowledge } from './tools.js';
import { type ClientSink, type Id, type Message, NL, PROTOCOL_VERSION_KEY } from './wire.js';

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

/** The envelope members the proxy copies from the client's first modern request into its own. */
const ENVELOPE_KEYS = [
  PROTOCOL_VERSION_KEY,
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
];

function hasModernClaim(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as Record<string, unknown> | undefined;
  return typeof meta?.[PROTOCOL_VERSION_KEY] === 'string';
}

/** Writes whole lines on a daemon connection while it is open. */
function writerOf(link: DaemonLink): (line: Buffer | string) => void {
  return (line) => {
    if (!link.socket.destroyed)
      link.socket.write(typeof line === 'string' ? `${line}\n` : Buffer.concat([line, NL]));
  };
}

/** Whether an interrupted request may be sent again; undefined when its tool's annotations are not known yet. */
export function isReplayable(pending: PendingRequest, tools: ToolKnowledge): boolean | undefined {
  if (pending.method === 'initialize') return true;
  if (READ_ONLY_METHODS.has(pending.method) || REPLAYABLE_TASK_METHODS.has(pending.method)) return true;
  if (pending.method !== 'tools/call' || pending.tool === undefined) return false;
  return tools.isReadOnly(pending.tool);
}

export interface ReplayParts {
  readonly ledger: RequestLedger;
  readonly tools: ToolKnowledge;
  readonly ownRequests: OwnRequests;
  readonly client: ClientSink;
  readonly warn: (line: string) => void;
  /** A fresh whole tool list the replay fetched: whoever it is news to is told (the change feed). */
  readonly toolsSeen: (tools: unknown) => void;
}

/** What the client's session looks like to a daemon, and how to tell a new daemon the same. */
export class SessionReplay {
  readonly #parts: ReplayParts;
  #era: 'legacy' | 'modern' | undefined;
  /** A legacy client's initialize request, and its ledger key. */
  #initialize: Message | undefined;
  #initializeKey: string | undefined;
  /** A legacy client's notifications/initialized line. */
  #initialized: Buffer | undefined;
  /** The envelope for the proxy's own requests to a restarted daemon (the client's first one is enough). */
  #envelope: Record<string, unknown> | undefined;

  constructor(parts: ReplayParts) {
    this.#parts = parts;
  }

  /** Notes the era (and, for a legacy client, its handshake) from a client request. */
  observeRequest(message: Message & { id: Id; method: string }, key: string): void {
    if (this.#era !== 'legacy' && hasModernClaim(message.params)) {
      this.#era = 'modern';
      if (this.#envelope === undefined) {
        const meta = message.params?._meta as Record<string, unknown>;
        this.#envelope = Object.fromEntries(ENVELOPE_KEYS.filter((k) => k in meta).map((k) => [k, meta[k]]));
      }
    } else if (message.method === 'initialize') {
      this.#era = 'legacy';
      this.#initialize = message;
      this.#initializeKey = key;
    }
  }

  get era(): 'legacy' | 'modern' | undefined {
    return this.#era;
  }

  /** The `_meta` members a modern client's requests carry, for the proxy's own. */
  get envelope(): Record<string, unknown> | undefined {
    return this.#envelope;
  }

  observeInitialized(line: Buffer): void {
    this.#initialized = line;
  }

  /**
   * Tells the daemon behind `link` (connection `generation`) what the last
   * one knew. Stops as soon as `isCurrent()` says that connection is gone.
   */
  async run(link: DaemonLink, generation: number, isCurrent: () => boolean): Promise<void> {
    const { ledger, tools, client } = this.#parts;
    const write = writerOf(link);
    // 1. A legacy connection's handshake (unless the client's own initialize is still waiting: it is re-sent below).
    const told = await this.#replayInitialize(write, isCurrent, 'restarted daemon');
    if (told === 'gone') return;
    if (told === 'told' && this.#initialized) write(this.#initialized);
    // 2. Open listen streams.
    for (const [key, listen] of ledger.listens) {
      write(listen.line);
      ledger.markSent(key, generation);
    }
    // 3. The tool list: annotations for interrupted calls, and whether it changed.
    const interrupted = ledger.interruptedBefore(generation);
    const unknown = interrupted.some(([, p]) => isReplayable(p, tools) === undefined);
    if (unknown || tools.listHash !== undefined) {
      if (!(await this.#checkTools(write, isCurrent))) return;
    }
    // 4. Requests in flight at the drop: read-only ones again, every other one a clear error.
    for (const [key, pending] of interrupted) {
      if (pending.notRun || isReplayable(pending, tools) === true) {
        pending.notRun = false;
        write(pending.line);
        pending.sentOn = generation;
      } else {
        ledger.pending.delete(key);
        client.fail(pending.id, RESTARTED_MESSAGE);
      }
    }
  }

  /**
   * The daemon this proxy started, first connected after the client's first
   * answers came from the primed answers (priming.ts): it is told the
   * client's legacy initialize (its answer, the one the client already has,
   * swallowed); the client's own notifications/initialized follows in its
   * place. Its tool list is then fetched on the client's envelope (which
   * also gives the connection the client's era first), and a list other than
   * the one the client was told (a daemon another build or other flags
   * started won the race) reaches the client as a change, once. That fetch
   * is not waited for: queued requests follow it on the socket.
   */
  async tellPrimed(link: DaemonLink, isCurrent: () => boolean): Promise<void> {
    const write = writerOf(link);
    if ((await this.#replayInitialize(write, isCurrent, 'daemon')) === 'gone') return;
    if (this.#era === 'modern' || this.#parts.tools.listHash !== undefined)
      void this.#checkTools(write, isCurrent);
  }

  /**
   * A legacy client's initialize, told again with the proxy's own id, unless the client's own is
   * still owed an answer (it goes again itself); `gone` when the connection went meanwhile.
   */
  async #replayInitialize(
    write: (line: Buffer | string) => void,
    isCurrent: () => boolean,
    who: string,
  ): Promise<'told' | 'none' | 'gone'> {
    const { ledger, ownRequests, warn } = this.#parts;
    if (this.#era !== 'legacy' || !this.#initialize || ledger.pending.has(this.#initializeKey ?? ''))
      return 'none';
    const answer = await ownRequests.send(write, { ...this.#initialize, id: '' });
    if (!isCurrent()) return 'gone';
    if (answer?.error) warn(`moor: the ${who} refused the replayed initialize: ${answer.error.message}`);
    return 'told';
  }

  /** Fetches the whole tool list on the client's envelope; what changed goes to the change feed. */
  async #checkTools(write: (line: Buffer | string) => void, isCurrent: () => boolean): Promise<boolean> {
    const { tools, ownRequests } = this.#parts;
    const params = this.#era === 'modern' && this.#envelope ? { _meta: this.#envelope } : undefined;
    const answer = await ownRequests.send(write, { method: 'tools/list', ...(params ? { params } : {}) });
    if (!isCurrent()) return false;
    if (answer?.result) {
      tools.learn(answer.result);
      // Compared with what the client was last told, not with the last list: a poll may have told it already.
      if (Array.isArray(answer.result.tools)) this.#parts.toolsSeen(answer.result.tools);
    }
    return true;
  }
}
