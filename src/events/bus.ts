/**
 * What one daemon must tell the others that serve the same deployment: a
 * task's status changed, a client asked to cancel a task or answered its
 * input request (the daemon running it must act), a session's bindings
 * changed, a resource was updated or a list changed in a room. Messages name
 * rows rather than carry them (receivers re-read the store), so they stay
 * small; each carries its sender's daemon id and a bus never hands a daemon
 * its own messages back.
 *
 * One daemon (the default) needs no bus between daemons: `localBus()` is a
 * hub with a single member, so publishing reaches nobody. `MemoryBusHub`
 * joins several in-process daemons (tests); `PgBus` (pg-bus.ts) joins
 * daemons through PostgreSQL LISTEN/NOTIFY.
 */
import { randomBytes } from 'node:crypto';
import { sessionTag } from './bus-seal.js';

export type ClusterMessage =
  /** A task's row changed (status, message, input requests): re-read it. */
  | { readonly kind: 'task-status'; readonly taskId: string }
  /** A client asked to cancel a task that `leaseOwner` runs. */
  | { readonly kind: 'task-cancel'; readonly taskId: string; readonly leaseOwner: string }
  /** A client answered input requests of a task that `leaseOwner` runs. */
  | {
      readonly kind: 'task-input';
      readonly taskId: string;
      readonly leaseOwner: string;
      readonly responses: Readonly<Record<string, unknown>>;
    }
  /**
   * A session's bindings changed in the store: drop what is cached of it. The
   * session is named by its tag (`ClusterBus.sessionTag`), never by its key.
   */
  | { readonly kind: 'binding-changed'; readonly sessionTag: string }
  /** A resource of a room (workspace) changed. */
  | { readonly kind: 'resource-updated'; readonly roomKey: string; readonly uri: string }
  /** A room's tools, resources or prompts list changed. */
  | {
      readonly kind: 'list-changed';
      readonly roomKey: string;
      readonly list: 'tools' | 'resources' | 'prompts';
    };

export type ClusterMessageKind = ClusterMessage['kind'];

export type ClusterHandler = (message: ClusterMessage, from: string) => void;

export interface ClusterSubscription {
  readonly handler: ClusterHandler;
  /**
   * After a lost connection is back: messages sent meanwhile may be lost, so
   * re-read what changed in the store after `since` (epoch ms, with margin).
   */
  readonly resync?: ((since: number) => void) | undefined;
}

export interface ClusterBus {
  /** This daemon's id (its incarnation), carried by every message it sends. */
  readonly daemonId: string;
  /** True when other daemons may be listening (a shared store). */
  readonly clustered: boolean;
  /** Payloads heard and dropped as not moor's (a bus anyone can write to); absent where nobody can. */
  readonly droppedMessages?: number;
  /** How messages name a session: a keyed hash every daemon of the cluster computes alike. */
  sessionTag(sessionKey: string): string;
  /** Sends to every other daemon; resolves once handed to the transport. */
  publish(message: ClusterMessage): Promise<void>;
  /** Receives other daemons' messages; returns the unsubscribe. */
  subscribe(handler: ClusterHandler, options?: { resync?: (since: number) => void }): () => void;
  close(): Promise<void>;
}

/** Delivers one message to subscribers, each guarded: one failing handler does not starve the rest. */
export function deliver(
  subscriptions: Iterable<ClusterSubscription>,
  message: ClusterMessage,
  from: string,
  onError?: (error: unknown) => void,
): void {
  for (const subscription of subscriptions) {
    try {
      subscription.handler(message, from);
    } catch (error) {
      onError?.(error);
    }
  }
}

/** Joins in-process buses: each message reaches every other member, on a later microtask. */
export class MemoryBusHub {
  readonly #members = new Set<MemoryBus>();
  /** The members' shared key for session tags, as a cluster's secret would be. */
  readonly #tagKey = randomBytes(32);

  connect(daemonId: string): ClusterBus {
    const bus = new MemoryBus(daemonId, this.#members, this.#tagKey);
    this.#members.add(bus);
    return bus;
  }
}

class MemoryBus implements ClusterBus {
  readonly daemonId: string;
  readonly #members: Set<MemoryBus>;
  readonly #subscriptions = new Set<ClusterSubscription>();
  readonly #tagKey: Buffer;

  constructor(daemonId: string, members: Set<MemoryBus>, tagKey: Buffer) {
    this.daemonId = daemonId;
    this.#members = members;
    this.#tagKey = tagKey;
  }

  sessionTag(sessionKey: string): string {
    return sessionTag(this.#tagKey, sessionKey);
  }

  get clustered(): boolean {
    return this.#members.size > 1;
  }

  async publish(message: ClusterMessage): Promise<void> {
    for (const member of this.#members) {
      if (member === this || member.daemonId === this.daemonId) continue;
      queueMicrotask(() => member.receive(message, this.daemonId));
    }
  }

  receive(message: ClusterMessage, from: string): void {
    deliver(this.#subscriptions, message, from);
  }

  subscribe(handler: ClusterHandler, options: { resync?: (since: number) => void } = {}): () => void {
    const subscription: ClusterSubscription = { handler, resync: options.resync };
    this.#subscriptions.add(subscription);
    return () => this.#subscriptions.delete(subscription);
  }

  async close(): Promise<void> {
    this.#subscriptions.clear();
    this.#members.delete(this);
  }
}

/** The single daemon's bus: nobody else to tell. */
export function localBus(daemonId: string): ClusterBus {
  return new MemoryBusHub().connect(daemonId);
}
