/**
 * Five `moor stdio` proxies share one daemon that is killed -9 five times.
 * Every proxy starts a daemon each time (one wins the lock); none of those
 * starts failed, so no proxy may refuse a call with "could not be started"
 * while a daemon serves. Every read-only call is answered, correctly, once.
 * After each kill exactly one daemon is left, the one the incarnation names.
 * Real processes; each replacement is awaited by observable state.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanupAll,
  daemonProcesses,
  incarnationPid,
  isAlive,
  makeState,
  waitFor,
} from '../daemon/harness.js';
import { type Msg, ProxyClient } from '../proxy/proxy-client.js';

afterEach(cleanupAll);

const PROXIES = 5;
const ROUNDS = 10;
const KILLS = 5;

describe('kill -9 of a daemon five proxies share', () => {
  it('answers every read-only call of every proxy over 10 rounds and 5 kills', async () => {
    const state = makeState();
    const clients = Array.from({ length: PROXIES }, () => new ProxyClient(state));
    await Promise.all(clients.map((c) => c.initialize()));
    // Each proxy learns the tools' annotations, so get_decision (readOnlyHint) is replayable.
    for (const c of clients) expect((await c.request('tools/list')).result?.tools).toBeDefined();
    // Those may have come primed (proxy/priming.ts); a ping only the daemon answers: every proxy is connected.
    for (const c of clients) expect((await c.request('ping')).result).toBeDefined();

    const answers: Msg[] = [];
    let kills = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const sent = clients.map((c, n) => ({
        c,
        list: c.send('tools/list'),
        get: c.send('tools/call', {
          name: 'get_decision',
          arguments: { ref: String(((round + n) % 5) + 1) },
        }),
        number: ((round + n) % 5) + 1,
      }));
      if (round % 2 === 1 && kills < KILLS) {
        const pid = incarnationPid(state) as number;
        process.kill(pid, 'SIGKILL');
        kills += 1;
        await waitFor(
          `the daemon replacing ${pid}`,
          () => {
            const next = incarnationPid(state);
            return next !== undefined && next !== pid && isAlive(next) ? next : undefined;
          },
          20_000,
        ).catch((error: unknown) => {
          // What the proxies said is what tells a slow start from one that never came.
          const said = clients.map((c, n) => `proxy ${n}: ${c.stderr.join(' | ') || '(nothing)'}`).join('\n');
          throw new Error(`${(error as Error).message} (round ${round})\n${said}`);
        });
      }
      for (const { c, list, get, number } of sent) {
        const listed = await c.response(list, 20_000);
        const got = await c.response(get, 20_000);
        answers.push(listed, got);
        expect(listed.error, `round ${round} tools/list`).toBeUndefined();
        expect(listed.result?.tools).toBeDefined();
        expect(got.error, `round ${round} get_decision`).toBeUndefined();
        expect(got.result?.structuredContent).toMatchObject({ number });
        expect(c.responses(list)).toHaveLength(1);
        expect(c.responses(get)).toHaveLength(1);
      }
      if (round % 2 === 1) {
        // Of the daemons the proxies started, the losers of the lock leave: one serves, the one the
        // incarnation names. Two that both believed they held the lock would both stay.
        await waitFor(
          'one daemon left, the one the incarnation names',
          () => {
            const live = daemonProcesses(state).filter(isAlive);
            return live.length === 1 && live[0] === incarnationPid(state) ? true : undefined;
          },
          20_000,
        ).catch((error: unknown) => {
          const live = daemonProcesses(state).filter(isAlive);
          throw new Error(
            `${(error as Error).message}: live ${live.join(', ')}, incarnation ${incarnationPid(state)}`,
          );
        });
      }
    }
    expect(kills).toBe(KILLS);
    expect(answers).toHaveLength(ROUNDS * PROXIES * 2);
    for (const c of clients) {
      expect(c.stderr.filter((l) => /could not be started/.test(l))).toEqual([]);
      expect(await c.close()).toBe(0);
    }
  }, 90_000);
});
