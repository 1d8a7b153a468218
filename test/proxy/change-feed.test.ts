/**
 * The change feed against a scripted daemon: every fetch is a promise the
 * test settles, and the poll timer ticks only when the test says so. One
 * change produces one list_changed per destination, whether the daemon's push
 * or the poll sees it first; the client's era decides its shape.
 */
import { describe, expect, it } from 'vitest';
import {
  ChangeFeed,
  type ClientListens,
  type FeedDaemon,
  type FeedScheduler,
  type ListKind,
} from '../../src/proxy/change-feed.js';
import { type ClientSink, type Id, keyOf, type Message } from '../../src/proxy/wire.js';

interface Asked {
  readonly message: Message;
  settle(answer: Message | undefined): void;
}

class ScriptedDaemon implements FeedDaemon {
  readonly asked: Asked[] = [];
  readonly opened: Array<{ id: Id; message: Message; end(answer: Message | undefined): void }> = [];
  #next = 1;
  connected = true;

  request(message: Message): Promise<Message | undefined> {
    return new Promise((resolve) => this.asked.push({ message, settle: resolve }));
  }

  open(message: Message): { id: Id; answer: Promise<Message | undefined> } | undefined {
    if (!this.connected) return undefined;
    const id = `moor-proxy-${this.#next++}`;
    let end: (answer: Message | undefined) => void = () => {};
    const answer = new Promise<Message | undefined>((resolve) => {
      end = resolve;
    });
    this.opened.push({ id, message, end });
    return { id, answer };
  }

  /** Takes the oldest unanswered fetch, checking what it asks for. */
  take(method: string): Asked {
    const index = this.asked.findIndex((a) => a.message.method === method);
    expect(index, `a pending ${method}`).toBeGreaterThanOrEqual(0);
    return this.asked.splice(index, 1)[0] as Asked;
  }

  /** Answers the oldest pending `kind/list` with `items`. */
  async answer(kind: ListKind, items: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
    this.take(`${kind}/list`).settle({ id: 0, result: { [kind]: items, ...extra } });
    await settled();
  }
}

class CapturedClient implements ClientSink {
  readonly lines: Message[] = [];
  readonly raw: string[] = [];
  #queued: Buffer[] = [];
  send(line: Buffer): void {
    this.#queued.push(line);
  }
  flush(): void {
    for (const line of this.#queued.splice(0)) {
      this.raw.push(line.toString('utf8'));
      this.lines.push(JSON.parse(line.toString('utf8')) as Message);
    }
  }
  fail(): void {}
  of(method: string): Message[] {
    return this.lines.filter((l) => l.method === method);
  }
}

class ManualScheduler implements FeedScheduler {
  ticks: Array<() => void> = [];
  intervals: number[] = [];
  every(ms: number, tick: () => void): () => void {
    this.intervals.push(ms);
    this.ticks.push(tick);
    return () => {
      this.ticks = this.ticks.filter((t) => t !== tick);
    };
  }
  tick(): void {
    for (const t of this.ticks) t();
  }
}

class Listens implements ClientListens {
  readonly open = new Map<string, { id: Id; tools: boolean; resources: boolean }>();
  add(id: Id, kinds: { tools?: boolean; resources?: boolean }): void {
    this.open.set(keyOf(id), { id, tools: kinds.tools === true, resources: kinds.resources === true });
  }
  honouring(kind: ListKind): Array<{ key: string; id: Id }> {
    return [...this.open].filter(([, l]) => l[kind]).map(([key, l]) => ({ key, id: l.id }));
  }
  has(key: string): boolean {
    return this.open.has(key);
  }
}

const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

const TOOLS_A = [{ name: 'a' }];
const TOOLS_B = [{ name: 'a' }, { name: 'b' }];
const RES_A = [{ uri: 'decision:///1' }];
const RES_B = [{ uri: 'decision:///1' }, { uri: 'decision:///2' }];
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const SUB = 'io.modelcontextprotocol/subscriptionId';

function setup(pollMs = 30_000) {
  const daemon = new ScriptedDaemon();
  const client = new CapturedClient();
  const scheduler = new ManualScheduler();
  const listens = new Listens();
  const feed = new ChangeFeed({ daemon, client, listens, pollMs, scheduler });
  return { daemon, client, scheduler, listens, feed };
}

function push(feed: ChangeFeed, kind: ListKind, subscriptionId?: Id): { taken: boolean; line: string } {
  const message: Message = {
    method: `notifications/${kind}/list_changed`,
    ...(subscriptionId === undefined ? {} : { params: { _meta: { [SUB]: subscriptionId } } }),
  };
  const line = JSON.stringify({ jsonrpc: '2.0', ...message });
  return { taken: feed.take(message, Buffer.from(line)), line };
}

/** Arms a legacy feed and answers its baseline fetches. */
async function legacyBaseline(s: ReturnType<typeof setup>): Promise<void> {
  s.feed.connected();
  s.feed.arm('legacy');
  await s.daemon.answer('tools', TOOLS_A);
  await s.daemon.answer('resources', RES_A);
}

describe('ChangeFeed: polling', () => {
  it('takes a baseline when armed, then tells a legacy client only when a list really changed', async () => {
    const s = setup(5000);
    await legacyBaseline(s);
    expect(s.scheduler.intervals).toEqual([5000]);
    expect(s.client.lines).toEqual([]);

    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A);
    expect(s.client.lines).toEqual([]);

    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_B);
    expect(s.client.raw).toEqual(['{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}']);

    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_B);
    await s.daemon.answer('resources', RES_B);
    expect(s.client.raw.slice(1)).toEqual(['{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}']);
  });

  it('follows resources/list pages: a change on page two is a change', async () => {
    const s = setup();
    s.feed.connected();
    s.feed.arm('legacy');
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A, { nextCursor: 'p2' });
    expect(s.daemon.asked.map((a) => a.message)).toEqual([
      { method: 'resources/list', params: { cursor: 'p2' } },
    ]);
    await s.daemon.answer('resources', [{ uri: 'decision:///3' }]);
    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A, { nextCursor: 'p2' });
    await s.daemon.answer('resources', [{ uri: 'decision:///3' }]);
    expect(s.client.lines).toEqual([]);
    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A, { nextCursor: 'p2' });
    await s.daemon.answer('resources', [{ uri: 'decision:///4' }]);
    expect(s.client.of('notifications/resources/list_changed')).toHaveLength(1);
  });

  it('does not poll while disconnected, and never with pollMs 0', async () => {
    const s = setup();
    await legacyBaseline(s);
    s.feed.disconnected();
    s.scheduler.tick();
    expect(s.daemon.asked).toEqual([]);

    const off = setup(0);
    off.feed.connected();
    off.feed.arm('legacy');
    expect(off.scheduler.ticks).toHaveLength(0);
    expect(off.daemon.asked).toEqual([]);
  });
});

describe('ChangeFeed: a push and a poll that see the same change make one emit', () => {
  it('push first: the push goes on once the fetch shows news, and the next poll that sees the same list is silent', async () => {
    const s = setup();
    await legacyBaseline(s);
    const { taken, line } = push(s.feed, 'tools');
    expect(taken).toBe(true);
    // Held until the fetch says whether it is news.
    expect(s.client.lines).toEqual([]);
    await s.daemon.answer('tools', TOOLS_B);
    expect(s.client.raw).toEqual([line]);

    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_B);
    await s.daemon.answer('resources', RES_A);
    expect(s.client.of('notifications/tools/list_changed')).toHaveLength(1);
  });

  it('poll first: the poll tells the client, and the push of the same change that follows is dropped', async () => {
    const s = setup();
    await legacyBaseline(s);
    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_B);
    await s.daemon.answer('resources', RES_A);
    expect(s.client.of('notifications/tools/list_changed')).toHaveLength(1);

    expect(push(s.feed, 'tools').taken).toBe(true);
    await s.daemon.answer('tools', TOOLS_B);
    expect(s.client.of('notifications/tools/list_changed')).toHaveLength(1);
  });

  it('a push that arrives while a poll is fetching waits for a fresh fetch, so a later change is not missed', async () => {
    const s = setup();
    await legacyBaseline(s);
    s.scheduler.tick();
    push(s.feed, 'tools');
    // The poll's fetch was sent before the push: its answer may predate the change.
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A);
    expect(s.client.lines).toEqual([]);
    await s.daemon.answer('tools', TOOLS_B);
    expect(s.client.of('notifications/tools/list_changed')).toHaveLength(1);
    expect(s.daemon.asked).toEqual([]);
  });

  it('a held push goes on when the list cannot be read (twice is better than never)', async () => {
    const s = setup();
    await legacyBaseline(s);
    push(s.feed, 'resources');
    s.daemon.take('resources/list').settle(undefined);
    await settled();
    expect(s.client.of('notifications/resources/list_changed')).toHaveLength(1);
  });
});

describe('ChangeFeed: a modern client', () => {
  async function modern(s: ReturnType<typeof setup>) {
    s.feed.connected();
    s.feed.arm('modern', ENVELOPE);
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A);
  }

  it('opens its own listen with the client envelope; what the acknowledgement honours is not polled', async () => {
    const s = setup();
    await modern(s);
    expect(s.daemon.opened).toHaveLength(1);
    const own = s.daemon.opened[0] as ScriptedDaemon['opened'][number];
    expect(own.message).toEqual({
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true, resourcesListChanged: true }, _meta: ENVELOPE },
    });
    // Its fetches carry the envelope too.
    s.scheduler.tick();
    expect(s.daemon.asked.map((a) => a.message)).toEqual([
      { method: 'tools/list', params: { _meta: ENVELOPE } },
      { method: 'resources/list', params: { _meta: ENVELOPE } },
    ]);
    await s.daemon.answer('tools', TOOLS_A);
    await s.daemon.answer('resources', RES_A);

    const ack: Message = {
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: own.id } },
    };
    expect(s.feed.take(ack, Buffer.from(JSON.stringify(ack)))).toBe(true);
    expect(s.feed.covers('tools')).toBe(true);
    s.scheduler.tick();
    expect(s.daemon.asked.map((a) => a.message.method)).toEqual(['resources/list']);
    await s.daemon.answer('resources', RES_A);

    // The listen ends (refused, or its daemon going away): both lists are polled again.
    own.end({ id: own.id, error: { code: -32603, message: 'Subscription limit reached' } });
    await settled();
    s.scheduler.tick();
    expect(s.daemon.asked.map((a) => a.message.method)).toEqual(['tools/list', 'resources/list']);
  });

  it('re-opens its own listen after a reconnect', async () => {
    const s = setup();
    await modern(s);
    s.feed.disconnected();
    s.feed.connected();
    expect(s.daemon.opened.map((o) => o.id)).toEqual(['moor-proxy-1', 'moor-proxy-2']);
  });

  it('a poll tells each client listen that asked for the kind, stamped with its id; a client with no listen is told nothing', async () => {
    const s = setup();
    await modern(s);
    s.scheduler.tick();
    await s.daemon.answer('tools', TOOLS_B);
    await s.daemon.answer('resources', RES_A);
    expect(s.client.lines).toEqual([]);

    s.listens.add('l-1', { tools: true });
    s.listens.add(7, { resources: true });
    const ack: Message = {
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: 'l-1' } },
    };
    // A client listen's acknowledgement goes on to the client.
    expect(s.feed.take(ack, Buffer.from('{}'))).toBe(false);
    s.scheduler.tick();
    await s.daemon.answer('tools', [{ name: 'c' }]);
    await s.daemon.answer('resources', RES_A);
    expect(s.client.lines).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 'l-1' } } },
    ] as unknown as Message[]);

    // The daemon's own copy on that stream, for the same change, is a duplicate.
    expect(push(s.feed, 'tools', 'l-1').taken).toBe(true);
    await s.daemon.answer('tools', [{ name: 'c' }]);
    expect(s.client.lines).toHaveLength(1);
  });

  it("the daemon's push on a client listen reaches it once, even when the proxy's own stream saw it first", async () => {
    const s = setup();
    s.listens.add('l-1', { tools: true });
    await modern(s);
    const own = s.daemon.opened[0]?.id as Id;
    expect(push(s.feed, 'tools', own).taken).toBe(true);
    const { line } = push(s.feed, 'tools', 'l-1');
    await s.daemon.answer('tools', TOOLS_B);
    await s.daemon.answer('tools', TOOLS_B);
    expect(s.client.of('notifications/tools/list_changed')).toHaveLength(1);
    expect(JSON.parse(line)).toEqual(s.client.lines[0]);
  });

  it('a push on a stream the client no longer has is not the feed’s to hold', async () => {
    const s = setup();
    await modern(s);
    expect(push(s.feed, 'tools', 'gone').taken).toBe(false);
  });
});
