/**
 * Keeping the client's idea of the tool and resource lists fresh. The proxy
 * holds its own `subscriptions/listen` on a modern connection (re-opened after
 * every reconnect); for what that listen does not cover (a legacy connection,
 * an older daemon, a listen refused or ended) it polls `tools/list` and
 * `resources/list` every `pollMs` and compares hashes.
 *
 * One rule decides every emit: a destination (the legacy connection, or one
 * of a modern client's listen streams) is told a list changed only when the
 * list's hash differs from the one it was last told about (or fetched
 * itself). A daemon's own list_changed on its way to the client is held until
 * a fetch of that list says whether it is news; so a push and a poll that see
 * the same change produce one notification, whichever comes first.
 */
import { hashTools as hashList } from './tools.js';
import { type ClientSink, type Id, keyOf, type Message, SUBSCRIPTION_ID_KEY } from './wire.js';

export type ListKind = 'tools' | 'resources';
export const LIST_KINDS: readonly ListKind[] = ['tools', 'resources'];

export const DEFAULT_POLL_MS = 30_000;
/** The environment variable that sets the poll interval in milliseconds (0: never poll). */
export const POLL_ENV = 'MOOR_PROXY_POLL_MS';
/** A list longer than this many pages is not followed further (its hash covers what was read). */
const MAX_PAGES = 100;

const LIST_CHANGED: Readonly<Record<ListKind, string>> = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
};
const HONOURED_FLAG: Readonly<Record<ListKind, string>> = {
  tools: 'toolsListChanged',
  resources: 'resourcesListChanged',
};
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
/** The legacy connection, as a destination. */
const LEGACY = 'legacy';

/** Repeats `tick` every `ms` until the returned function is called. */
export interface FeedScheduler {
  every(ms: number, tick: () => void): () => void;
}

export const timerScheduler: FeedScheduler = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** How the feed reaches the daemon: the relay's own requests on the current connection. */
export interface FeedDaemon {
  /** Sends one of the proxy's own requests; undefined when no answer came (drop, timeout, not connected). */
  request(message: Message): Promise<Message | undefined>;
  /** Opens a request that stays open (a listen); `answer` settles with its final answer, or undefined on a drop. */
  open(message: Message): { readonly id: Id; readonly answer: Promise<Message | undefined> } | undefined;
}

/** The client's listen streams, as the ledger knows them. */
export interface ClientListens {
  /** Listens whose acknowledgement honoured `kind`, by ledger key. */
  honouring(kind: ListKind): Array<{ readonly key: string; readonly id: Id }>;
  has(key: string): boolean;
}

export interface ChangeFeedOptions {
  readonly daemon: FeedDaemon;
  readonly client: ClientSink;
  readonly listens: ClientListens;
  /** 0: never poll (nor look on arming or reconnecting); pushes are still deduplicated. */
  readonly pollMs: number;
  readonly scheduler?: FeedScheduler;
}

interface HeldPush {
  readonly destination: string;
  readonly line: Buffer;
}

export class ChangeFeed {
  readonly #options: ChangeFeedOptions;
  readonly #scheduler: FeedScheduler;
  #era: 'legacy' | 'modern' | undefined;
  /** The `_meta` envelope of a modern client, copied into the proxy's own requests. */
  #envelope: Record<string, unknown> | undefined;
  #connected = false;
  #stopPolling: (() => void) | undefined;
  /** The proxy's own listen on this connection, and the kinds its acknowledgement honoured. */
  #ownListen: { readonly key: string; covers: Set<ListKind> } | undefined;
  /** Per kind: the hash each destination was last told about. */
  readonly #told: Record<ListKind, Map<string, string>> = { tools: new Map(), resources: new Map() };
  /** Per kind: the hash of the last list the proxy saw. */
  readonly #latest: Record<ListKind, string | undefined> = { tools: undefined, resources: undefined };
  /** Per kind: daemon pushes waiting for the next fetch to say whether they are news. */
  readonly #held: Record<ListKind, HeldPush[]> = { tools: [], resources: [] };
  readonly #fetching = new Set<ListKind>();
  readonly #again = new Set<ListKind>();

  constructor(options: ChangeFeedOptions) {
    this.#options = options;
    this.#scheduler = options.scheduler ?? timerScheduler;
  }

  /** Whether the proxy's own listen covers `kind` (then that kind is not polled). */
  covers(kind: ListKind): boolean {
    return this.#ownListen?.covers.has(kind) === true;
  }

  /**
   * The client's era is known (and, for a legacy client, its handshake done):
   * start watching. Idempotent.
   */
  arm(era: 'legacy' | 'modern', envelope?: Record<string, unknown>): void {
    if (this.#era !== undefined) return;
    this.#era = era;
    this.#envelope = envelope;
    const { pollMs } = this.#options;
    if (pollMs > 0) this.#stopPolling = this.#scheduler.every(pollMs, () => this.poll());
    if (this.#connected) this.#watch();
  }

  /** A daemon is connected and caught up (replay done). */
  connected(): void {
    this.#connected = true;
    if (this.#era !== undefined) this.#watch();
  }

  disconnected(): void {
    this.#connected = false;
    this.#ownListen = undefined;
  }

  stop(): void {
    this.#stopPolling?.();
    this.#stopPolling = undefined;
    this.#connected = false;
  }

  /** One poll: every kind the proxy's own listen does not cover. */
  poll(): void {
    if (!this.#connected || this.#era === undefined) return;
    for (const kind of LIST_KINDS) if (!this.covers(kind)) void this.#round(kind);
  }

  /** The client fetched the whole list itself: it knows this one. */
  clientListed(kind: ListKind, hash: string): void {
    this.#latest[kind] = hash;
    for (const destination of this.#destinations(kind)) this.#told[kind].set(destination, hash);
  }

  /** The proxy fetched the whole list by other means (a replay): tell whoever it is news to. */
  listSeen(kind: ListKind, items: unknown): void {
    this.#settle(kind, hashList(items), []);
    this.#options.client.flush();
  }

  /**
   * A notification from the daemon. True when the feed takes it: its own
   * listen's traffic, or a list_changed held until a fetch says it is news.
   */
  take(message: Message, line: Buffer): boolean {
    const method = message.method;
    if (method === ACKNOWLEDGED) return this.#takeAck(message);
    const kind: ListKind | undefined =
      method === LIST_CHANGED.tools ? 'tools' : method === LIST_CHANGED.resources ? 'resources' : undefined;
    if (kind === undefined) return false;
    const subscriptionId = subscriptionOf(message);
    if (subscriptionId === undefined) {
      this.#held[kind].push({ destination: LEGACY, line });
    } else {
      const key = keyOf(subscriptionId);
      // The proxy's own stream: nothing to forward, but the list is worth a look.
      if (key !== this.#ownListen?.key) {
        if (!this.#options.listens.has(key)) return false;
        this.#held[kind].push({ destination: key, line });
      }
    }
    void this.#round(kind);
    return true;
  }

  #takeAck(message: Message): boolean {
    const subscriptionId = subscriptionOf(message);
    const own = this.#ownListen;
    if (subscriptionId === undefined) return false;
    const key = keyOf(subscriptionId);
    if (own?.key === key) {
      const honoured = (message.params?.notifications ?? {}) as Record<string, unknown>;
      own.covers = new Set(LIST_KINDS.filter((kind) => honoured[HONOURED_FLAG[kind]] === true));
      return true;
    }
    // A client listen starts from what the proxy last saw.
    if (this.#options.listens.has(key)) {
      for (const kind of LIST_KINDS) {
        const latest = this.#latest[kind];
        if (latest !== undefined && !this.#told[kind].has(key)) this.#told[kind].set(key, latest);
      }
    }
    return false;
  }

  /**
   * Opens the own listen (modern) and, unless polling is off, looks at both
   * lists once: the baseline, or changes made while the proxy was away.
   */
  #watch(): void {
    if (this.#era === 'modern' && this.#ownListen === undefined) this.#openOwnListen();
    if (this.#options.pollMs > 0) for (const kind of LIST_KINDS) void this.#round(kind);
  }

  #openOwnListen(): void {
    const notifications = { toolsListChanged: true, resourcesListChanged: true };
    const opened = this.#options.daemon.open({
      method: 'subscriptions/listen',
      params: { notifications, ...(this.#envelope ? { _meta: this.#envelope } : {}) },
    });
    if (!opened) return;
    const own = { key: keyOf(opened.id), covers: new Set<ListKind>() };
    this.#ownListen = own;
    // Refused or ended: poll instead. A reconnect opens it again.
    void opened.answer.then(() => {
      if (this.#ownListen === own) own.covers = new Set();
    });
  }

  /** Fetches `kind` (one fetch at a time; a push that arrives meanwhile waits for the next). */
  async #round(kind: ListKind): Promise<void> {
    if (this.#fetching.has(kind)) {
      this.#again.add(kind);
      return;
    }
    this.#fetching.add(kind);
    const held = this.#held[kind];
    this.#held[kind] = [];
    try {
      const hash = await this.#fetchHash(kind);
      this.#settle(kind, hash, held);
      this.#options.client.flush();
    } finally {
      this.#fetching.delete(kind);
      if (this.#again.delete(kind)) void this.#round(kind);
    }
  }

  /**
   * Held pushes go on when they are news (or when the list could not be
   * read: better twice than never); then every destination still behind
   * `hash` gets one list_changed of its own.
   */
  #settle(kind: ListKind, hash: string | undefined, held: readonly HeldPush[]): void {
    const told = this.#told[kind];
    const { client, listens } = this.#options;
    for (const push of held) {
      if (push.destination !== LEGACY && !listens.has(push.destination)) continue;
      if (hash !== undefined && told.get(push.destination) === hash) continue;
      client.send(push.line);
      if (hash !== undefined) told.set(push.destination, hash);
    }
    if (hash === undefined) return;
    this.#latest[kind] = hash;
    for (const destination of this.#destinations(kind)) {
      const previous = told.get(destination);
      told.set(destination, hash);
      // The first look is the baseline: nothing to compare it with.
      if (previous !== undefined && previous !== hash) client.send(this.#notification(kind, destination));
    }
  }

  /** Where a change of `kind` can be told: the legacy connection, or each client listen that asked for it. */
  #destinations(kind: ListKind): string[] {
    if (this.#era === 'legacy') return [LEGACY];
    if (this.#era === 'modern') return this.#options.listens.honouring(kind).map((listen) => listen.key);
    return [];
  }

  #notification(kind: ListKind, destination: string): Buffer {
    if (destination === LEGACY) return Buffer.from(`{"jsonrpc":"2.0","method":"${LIST_CHANGED[kind]}"}`);
    const listen = this.#options.listens.honouring(kind).find((l) => l.key === destination);
    const params = { _meta: { [SUBSCRIPTION_ID_KEY]: listen?.id } };
    return Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: LIST_CHANGED[kind], params }));
  }

  /** The whole list's hash (following pages), or undefined when the daemon did not give it. */
  async #fetchHash(kind: ListKind): Promise<string | undefined> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params: Record<string, unknown> = {
        ...(cursor === undefined ? {} : { cursor }),
        ...(this.#era === 'modern' && this.#envelope ? { _meta: this.#envelope } : {}),
      };
      const answer = await this.#options.daemon.request({
        method: `${kind}/list`,
        ...(Object.keys(params).length > 0 ? { params } : {}),
      });
      const result = answer?.result;
      const pageItems = result?.[kind];
      if (!Array.isArray(pageItems)) return undefined;
      items.push(...pageItems);
      cursor = typeof result?.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return hashList(items);
  }
}

function subscriptionOf(message: Message): Id | undefined {
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  const id = meta?.[SUBSCRIPTION_ID_KEY];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
