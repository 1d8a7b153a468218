/**
 * The listen budget over HTTP: one session's streams cannot spend the
 * daemon's whole bound (each session gets a share), and URIs that name no
 * resource cost nothing, so made-up URIs cannot lock other sessions out.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ListenBudget } from '../../src/host/events/listen-budget.js';
import { fixture, modernBody, modernHeaders, type Started, start } from './helpers.js';

const fx = fixture();
const started: Started[] = [];
const open: AbortController[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.abort();
  for (const s of started.splice(0)) await s.endpoint.close(100);
});
afterAll(() => fx.close());

/** Opens a listen stream of `session` on `uris`: 'acked', or the refusal's status and error code. */
async function listen(url: string, session: string, uris: string[]): Promise<string> {
  const controller = new AbortController();
  open.push(controller);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'moor-session': session,
      ...modernHeaders('subscriptions/listen'),
    },
    body: JSON.stringify(
      modernBody(`l-${Math.random()}`, 'subscriptions/listen', {
        notifications: { resourceSubscriptions: uris },
      }),
    ),
    signal: controller.signal,
  });
  if (response.status !== 200) {
    const body = (await response.json()) as { error: { code: number } };
    return `${response.status} ${body.error.code}`;
  }
  const reader = response.body?.getReader();
  const first = new TextDecoder().decode((await reader?.read())?.value);
  return first.includes('notifications/subscriptions/acknowledged') ? 'acked' : first;
}

const made = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `nothing://${tag}/${i}`);
const RECORDS = [
  'decision:///0001-record-architecture-decisions.md',
  'decision:///0002-use-postgresql-for-storage.md',
  'decision:///0003-use-sqlite-for-storage.md',
];

describe('listen share over HTTP', () => {
  it('one session gets its share only; another session still gets its streams; made-up URIs cost nothing', async () => {
    const s = await start(fx, { listenBudget: new ListenBudget({ maxUris: 2, maxMemberships: 6 }) });
    started.push(s);
    expect(s.endpoint).toBeDefined();
    // Many streams of made-up URIs (another scheme, or records that do not exist): none charged.
    for (let i = 0; i < 4; i++)
      expect(await listen(s.url, 'moor-greedy-session', made(2, `g${i}`))).toBe('acked');
    expect(await listen(s.url, 'moor-greedy-session', ['decision:///9999-x.md', 'decision:///nope'])).toBe(
      'acked',
    );
    // Its share (2) of resource URIs, then no more.
    expect(await listen(s.url, 'moor-greedy-session', RECORDS.slice(0, 2))).toBe('acked');
    expect(await listen(s.url, 'moor-greedy-session', RECORDS.slice(2))).toBe('429 -32600');
    // The daemon's bound (6) is not spent: another session still listens.
    expect(await listen(s.url, 'moor-other-session', RECORDS.slice(0, 2))).toBe('acked');
  });
});
