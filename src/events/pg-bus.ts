/**
 * The ClusterBus of daemons sharing PostgreSQL: NOTIFY on one channel per
 * schema, LISTEN on a connection of its own (a pooled one would be handed
 * to other queries). A message is JSON `{from, message}`, signed with the
 * cluster's bus key (bus-seal.ts); one that would not fit NOTIFY's
 * 8000-byte payload, or that carries a client's answers (`task-input`), is
 * written to `bus_payloads` and only its id is notified (`{from, ref}`):
 * anyone allowed to CONNECT may LISTEN, while that table is moor's role's
 * alone. A payload whose signature does not verify is dropped unread.
 *
 * When the listening connection drops, the bus reconnects with backoff,
 * LISTENs again and asks every subscriber to re-read what changed since a
 * little before the drop: notifications are not queued for a listener that
 * is gone, the store's rows are the truth.
 */
import pg from 'pg';
import { MoorError } from '../errors.js';
import { type PgConnectOptions, pgClientConfig } from '../store/pg/pool.js';
import {
  type ClusterBus,
  type ClusterHandler,
  type ClusterMessage,
  type ClusterSubscription,
  deliver,
} from './bus.js';
import { type BusEnvelope, busEnvelopeOf } from './bus-message-shape.js';
import { sessionTag, signPayload, verifiedBody } from './bus-seal.js';
import { ReplayWindow } from './replay-window.js';

/** NOTIFY refuses payloads of 8000 bytes and more; keep a margin. */
export const NOTIFY_LIMIT_BYTES = 7_900;
/** How far before a drop a resync reaches back: covers in-flight messages and clock skew between hosts. */
export const RESYNC_MARGIN_MS = 5_000;
const SPILL_RETENTION_MS = 60_000;
/** A flood of foreign payloads must not flood the log: one line per this interval, with the count. */
export const DROP_LOG_INTERVAL_MS = 60_000;

export interface PgBusOptions {
  readonly daemonId: string;
  /** The cluster's keys (from the store's shared secret): signing messages, naming sessions. */
  readonly keys: { readonly bus: Buffer; readonly sessionTag: Buffer };
  /** How to open the listening connection (the store's URL and schema). */
  readonly connect: PgConnectOptions;
  /** Sends notifications and spilled payloads. */
  readonly pool: pg.Pool;
  /** Default: derived from the schema, so that schemas sharing a database do not hear each other. */
  readonly channel?: string | undefined;
  readonly reconnectDelayMs?: number | undefined;
  log?(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
  readonly now?: (() => number) | undefined;
}

type Envelope = BusEnvelope;

export function channelFor(schema: string | undefined): string {
  return schema === undefined ? 'moor_events' : `moor_events_${schema}`.slice(0, 63);
}

export class PgBus implements ClusterBus {
  readonly daemonId: string;
  readonly clustered = true;
  readonly channel: string;
  readonly #options: PgBusOptions;
  readonly #subscriptions = new Set<ClusterSubscription>();
  readonly #now: () => number;
  #listener: pg.Client | undefined;
  #closed = false;
  #reconnecting: NodeJS.Timeout | undefined;
  #attempt = 0;
  /** Backend pid of the listening connection (tests terminate it). */
  listenerPid: number | undefined;
  /** Payloads heard on the channel and dropped: unsigned or badly signed, malformed, or unreadable. */
  droppedMessages = 0;
  #droppedSinceLog = 0;
  /** This daemon's last message number. */
  #seq = 0;
  readonly #heard = new ReplayWindow();
  #lastDropLogAt: number | undefined;

  private constructor(options: PgBusOptions) {
    this.#options = options;
    this.daemonId = options.daemonId;
    this.channel = options.channel ?? channelFor(options.connect.schema);
    this.#now = options.now ?? Date.now;
  }

  /** A bus listening already: messages published once this resolves reach it. */
  static async start(options: PgBusOptions): Promise<PgBus> {
    const bus = new PgBus(options);
    try {
      await bus.#listen();
    } catch (error) {
      throw new MoorError('STORE_UNAVAILABLE', `cannot listen on PostgreSQL: ${(error as Error).message}`);
    }
    return bus;
  }

  async #listen(): Promise<void> {
    const client = new pg.Client(
      pgClientConfig({ ...this.#options.connect, applicationName: `moor-bus ${this.daemonId}`.slice(0, 63) }),
    );
    let dropped = false;
    const onDrop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.#listener === client) this.#listener = undefined;
      if (!this.#closed) this.#scheduleReconnect(this.#now(), error);
    };
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload !== undefined) void this.#receive(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      dropped = true;
      await client.end().catch(() => {});
      throw error;
    }
    this.#listener = client;
    this.listenerPid = (client as unknown as { processID?: number }).processID;
  }

  #scheduleReconnect(droppedAt: number, error: Error | undefined): void {
    if (this.#reconnecting !== undefined) return;
    const base = this.#options.reconnectDelayMs ?? 100;
    const delay = Math.min(base * 2 ** this.#attempt, 5_000);
    this.#options.log?.('warn', 'event bus connection lost; reconnecting', {
      error: error?.message,
      delayMs: delay,
    });
    this.#reconnecting = setTimeout(async () => {
      this.#reconnecting = undefined;
      if (this.#closed) return;
      try {
        await this.#listen();
      } catch (retryError) {
        this.#attempt++;
        this.#scheduleReconnect(droppedAt, retryError as Error);
        return;
      }
      this.#attempt = 0;
      this.#options.log?.('info', 'event bus reconnected', { pid: this.listenerPid });
      const since = droppedAt - RESYNC_MARGIN_MS;
      for (const subscription of [...this.#subscriptions]) {
        try {
          subscription.resync?.(since);
        } catch (resyncError) {
          this.#options.log?.('warn', 'event bus resync failed', { error: (resyncError as Error).message });
        }
      }
    }, delay);
    this.#reconnecting.unref();
  }

  /** Never throws nor rejects: a payload is anyone's input, and a throw here would end the process. */
  async #receive(payload: string): Promise<void> {
    try {
      const body = verifiedBody(this.#options.keys.bus, payload);
      if (body === undefined) return this.#drop('not signed by this cluster');
      const envelope = busEnvelopeOf(body);
      if (envelope === undefined) return this.#drop('not a moor message');
      if (envelope.from === this.daemonId) return;
      if (!this.#heard.accept(envelope.from, envelope.seq)) return this.#drop('heard before');
      const message = envelope.message ?? (await this.#spilled(envelope.ref));
      if (message === undefined) return this.#drop('large message unreadable');
      if (this.#closed) return;
      deliver(this.#subscriptions, message, envelope.from, (error) =>
        this.#options.log?.('warn', 'event bus handler failed', { error: (error as Error)?.message }),
      );
    } catch (error) {
      this.#drop(`receive failed: ${(error as Error)?.message}`);
    }
  }

  async #spilled(ref: string | undefined): Promise<ClusterMessage | undefined> {
    if (ref === undefined) return undefined;
    const { rows } = await this.#options.pool.query<{ body: string }>(
      'SELECT body FROM bus_payloads WHERE id = $1',
      [ref],
    );
    const stored = rows[0]?.body;
    const body = stored === undefined ? undefined : verifiedBody(this.#options.keys.bus, stored);
    return body === undefined ? undefined : busEnvelopeOf(body)?.message;
  }

  #drop(reason: string): void {
    this.droppedMessages++;
    this.#droppedSinceLog++;
    const now = this.#now();
    if (this.#lastDropLogAt !== undefined && now - this.#lastDropLogAt < DROP_LOG_INTERVAL_MS) return;
    this.#lastDropLogAt = now;
    this.#options.log?.('warn', 'event bus dropped messages', {
      reason,
      dropped: this.#droppedSinceLog,
      total: this.droppedMessages,
    });
    this.#droppedSinceLog = 0;
  }

  sessionTag(sessionKey: string): string {
    return sessionTag(this.#options.keys.sessionTag, sessionKey);
  }

  #signed(envelope: Omit<Envelope, 'seq'>): string {
    this.#seq += 1;
    return signPayload(this.#options.keys.bus, JSON.stringify({ ...envelope, seq: this.#seq }));
  }

  async publish(message: ClusterMessage): Promise<void> {
    const body = this.#signed({ from: this.daemonId, message });
    // A client's answers may hold anything it was asked for: they never go out on the channel itself.
    if (message.kind !== 'task-input' && Buffer.byteLength(body) <= NOTIFY_LIMIT_BYTES) {
      await this.#options.pool.query('SELECT pg_notify($1, $2)', [this.channel, body]);
      return;
    }
    const now = this.#now();
    const { rows } = await this.#options.pool.query<{ id: string }>(
      'INSERT INTO bus_payloads (created_at, body) VALUES ($1, $2) RETURNING id',
      [now, body],
    );
    const ref = rows[0]?.id;
    await this.#options.pool.query('SELECT pg_notify($1, $2)', [
      this.channel,
      this.#signed({ from: this.daemonId, ...(ref === undefined ? {} : { ref }) }),
    ]);
    await this.#options.pool.query('DELETE FROM bus_payloads WHERE created_at < $1', [
      now - SPILL_RETENTION_MS,
    ]);
  }

  subscribe(handler: ClusterHandler, options: { resync?: (since: number) => void } = {}): () => void {
    const subscription: ClusterSubscription = { handler, resync: options.resync };
    this.#subscriptions.add(subscription);
    return () => this.#subscriptions.delete(subscription);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnecting !== undefined) clearTimeout(this.#reconnecting);
    this.#subscriptions.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.end().catch(() => {});
  }
}
