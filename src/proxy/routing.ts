/**
 * Where a line from the daemon goes: to the client, to one of the proxy's own
 * requests, or nowhere (a cancelled request's late answer, a replay's
 * duplicate acknowledgement). Answers settle the ledger on the way; a
 * tools/list answer teaches the tool annotations; a request handed back unrun
 * is kept for the next daemon.
 */
import { JsonRpcCode } from '../errors.js';
import { isJsonRpcId } from '../protocol/json-shape.js';
import { FOR_NEXT_DAEMON, type RequestLedger } from './ledger.js';
import type { OwnRequests } from './own-requests.js';
import { isReplayable } from './replay.js';
import type { ToolKnowledge } from './tools.js';
import { type ClientSink, type Id, keyOf, type Message, SUBSCRIPTION_ID_KEY } from './wire.js';

/** How the SDK starts and ends an ordinary result: `{"result":…,"jsonrpc":"2.0","id":ID}`. */
const RESULT_PREFIX = Buffer.from('{"result":');
const RESULT_TAIL = /"jsonrpc":"2\.0","id":(-?\d+|"[^"]*")\}$/;
const LOWERCASE_R = 114;

/** Sees the daemon's notifications before the client does; true when it takes one. */
export interface NotificationTap {
  take(message: Message, line: Buffer): boolean;
}

export class DaemonLineRouter {
  readonly #ledger: RequestLedger;
  readonly #ownRequests: OwnRequests;
  readonly #tools: ToolKnowledge;
  readonly #client: ClientSink;
  readonly #notifications: NotificationTap | undefined;

  constructor(
    ledger: RequestLedger,
    ownRequests: OwnRequests,
    tools: ToolKnowledge,
    client: ClientSink,
    notifications?: NotificationTap,
  ) {
    this.#ledger = ledger;
    this.#ownRequests = ownRequests;
    this.#tools = tools;
    this.#client = client;
    this.#notifications = notifications;
  }

  route(line: Buffer): void {
    if (this.#forwardPlainResult(line)) return;
    let message: Message | undefined;
    try {
      message = JSON.parse(line.toString('utf8')) as Message;
    } catch {
      this.#client.send(line);
      return;
    }
    if (typeof message !== 'object' || message === null) {
      this.#client.send(line);
      return;
    }
    if (message.method !== undefined) {
      if (message.method === 'notifications/subscriptions/acknowledged' && this.#isReplayedAck(message))
        return;
      if (this.#notifications?.take(message, line)) return;
      this.#client.send(line);
      return;
    }
    if (!isJsonRpcId(message.id)) {
      this.#client.send(line);
      return;
    }
    const key = keyOf(message.id);
    if (this.#ownRequests.settle(key, message)) return;
    const ledger = this.#ledger;
    const listen = ledger.listens.get(key);
    if (listen) {
      // A listen's result means the daemon is closing this connection: it is re-sent after reconnecting.
      if (message.result !== undefined && listen.acked) return;
      ledger.listens.delete(key);
      this.#client.send(line);
      return;
    }
    if (ledger.cancelled.delete(key)) return;
    const pending = ledger.pending.get(key);
    if (pending) {
      const data = message.error?.data as { executed?: unknown } | undefined;
      if (message.error?.code === JsonRpcCode.Unavailable && data !== undefined) {
        // Refused at the door of a daemon that is going away (never ran), or interrupted while read-only: ask the next one.
        if (
          data.executed === false ||
          (data.executed === 'unknown' && isReplayable(pending, this.#tools) === true)
        ) {
          pending.notRun = data.executed === false;
          pending.sentOn = FOR_NEXT_DAEMON;
          return;
        }
      }
      ledger.pending.delete(key);
      if (pending.method === 'tools/list' && message.result !== undefined)
        this.#tools.learn(message.result, pending.line);
    }
    this.#client.send(line);
  }

  /**
   * Notes what a listen acknowledgement says; true when the client already
   * had one for that listen (this one answers the replay) and it is dropped.
   */
  #isReplayedAck(message: Message): boolean {
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    const subscriptionId = meta?.[SUBSCRIPTION_ID_KEY];
    const listen = !isJsonRpcId(subscriptionId) ? undefined : this.#ledger.listens.get(keyOf(subscriptionId));
    if (!listen) return false;
    const honoured = message.params?.notifications as
      | { toolsListChanged?: boolean; resourcesListChanged?: boolean }
      | undefined;
    listen.tools = honoured?.toolsListChanged === true;
    listen.resources = honoured?.resourcesListChanged === true;
    if (listen.acked) return true;
    listen.acked = true;
    return false;
  }

  /**
   * The hot path: an ordinary result, as the SDK writes it, is forwarded
   * after reading only its id from the tail; a full parse is needed only for
   * errors, tool lists, listens, and the proxy's own requests.
   */
  #forwardPlainResult(line: Buffer): boolean {
    if (line.length < 40 || line[2] !== LOWERCASE_R || !line.subarray(0, 10).equals(RESULT_PREFIX))
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
    const ledger = this.#ledger;
    const pending = ledger.pending.get(key);
    if (!pending || pending.method === 'tools/list' || this.#ownRequests.has(key) || ledger.listens.has(key))
      return false;
    if (ledger.cancelled.has(key)) return false;
    ledger.pending.delete(key);
    this.#client.send(line);
    return true;
  }
}
