/**
 * The restart budget counts this proxy's failed starts only: a start whose
 * daemon (or another proxy's) then answers is not a failure, and a daemon
 * that answers resets the count. Connect and spawn are injected; each
 * round is driven by the supervisor's own callbacks, never by timers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonLink, LinkOutcome } from '../../src/protocol/daemon-link.js';
import { HELLO_VERSION } from '../../src/protocol/hello.js';
import { statePaths } from '../../src/protocol/state-dir.js';
import {
  DaemonSupervisor,
  RESTART_BUDGET,
  RESTART_WINDOW_MS,
  RestartBudget,
} from '../../src/proxy/supervisor.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const ABSENT: LinkOutcome = { kind: 'absent', reason: 'ENOENT' };
/** A daemon of the proxy's own version (the hello's client version), so no upgrade is asked for. */
const fakeLink = () =>
  ({
    kind: 'connected',
    link: {
      rest: Buffer.alloc(0),
      incarnation: { pid: 1, startedAt: new Date(0).toISOString(), version: '1' },
    } as unknown as DaemonLink,
  }) as const;

/** A supervisor whose daemon answers only when `serving` says so. */
function supervise(serving: { now: boolean }, onSpawn: () => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-budget-'));
  dirs.push(dir);
  const events: string[] = [];
  let spawns = 0;
  const supervisor = new DaemonSupervisor(
    {
      paths: statePaths(dir),
      hello: {
        moor: HELLO_VERSION,
        sessionKey: 'moor-budget',
        client: { name: 't', version: '1' },
        workspace: dir,
      },
      warn: () => {},
      spawn: () => {
        spawns += 1;
        onSpawn();
        return undefined;
      },
      startWaitMs: 60_000,
      connect: async () => (serving.now ? fakeLink() : ABSENT),
    },
    {
      isClosed: () => false,
      connected: () => events.push('connected'),
      refused: (m) => events.push(`refused ${m}`),
      failAll: (m) => events.push(`failAll ${m}`),
      down: () => events.push('down'),
    },
  );
  return { supervisor, events, spawns: () => spawns };
}

describe('RestartBudget', () => {
  it('refuses after RESTART_BUDGET unanswered starts in the window, and starts over once a daemon answers', () => {
    const budget = new RestartBudget();
    for (let i = 0; i < RESTART_BUDGET; i++) {
      expect(budget.allows(1000 + i)).toBe(true);
      budget.recordStart(1000 + i);
    }
    expect(budget.allows(1000 + RESTART_BUDGET)).toBe(false);
    expect(budget.allows(1000 + RESTART_WINDOW_MS)).toBe(true);
    for (let i = 0; i < RESTART_BUDGET; i++) budget.recordStart(2000);
    budget.answered();
    expect(budget.allows(2001)).toBe(true);
  });
});

describe('DaemonSupervisor restart budget', () => {
  it('never refuses a daemon killed again and again when each start is answered', async () => {
    const serving = { now: false };
    const { supervisor, events, spawns } = supervise(serving, () => {
      serving.now = true;
    });
    for (let round = 1; round <= RESTART_BUDGET * 3; round++) {
      serving.now = false; // killed -9: nothing answers until a start
      await supervisor.connect();
      expect(events.at(-1)).toBe('connected');
    }
    expect(spawns()).toBe(RESTART_BUDGET * 3);
    expect(events.filter((e) => e !== 'connected')).toEqual([]);
  });

  it('starts over once a daemon answers after failed starts, whoever started it', async () => {
    const serving = { now: false };
    let spawns = 0;
    const events: string[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-budget-'));
    dirs.push(dir);
    const supervisor = new DaemonSupervisor(
      {
        paths: statePaths(dir),
        hello: { moor: HELLO_VERSION, sessionKey: 'k', client: { name: 't', version: '1' }, workspace: dir },
        warn: () => {},
        spawn: () => {
          spawns += 1;
          // Our first RESTART_BUDGET - 1 starts never answer; then another proxy's daemon does.
          if (spawns === RESTART_BUDGET - 1) serving.now = true;
          return undefined;
        },
        startWaitMs: 1,
        connect: async () => (serving.now ? fakeLink() : ABSENT),
      },
      {
        isClosed: () => false,
        connected: () => events.push('connected'),
        refused: () => events.push('refused'),
        failAll: () => events.push('failAll'),
        down: () => events.push('down'),
      },
    );
    await supervisor.connect();
    expect(events.at(-1)).toBe('connected');
    expect(spawns).toBe(RESTART_BUDGET - 1);
    // Killed again, and this time nothing comes: a whole budget of starts before giving up.
    serving.now = false;
    await supervisor.connect();
    expect(events.at(-1)).toBe('down');
    expect(spawns).toBe(2 * RESTART_BUDGET - 1);
  });

  it('is down after RESTART_BUDGET starts that nothing answered', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-budget-'));
    dirs.push(dir);
    const events: string[] = [];
    let spawns = 0;
    const supervisor = new DaemonSupervisor(
      {
        paths: statePaths(dir),
        hello: { moor: HELLO_VERSION, sessionKey: 'k', client: { name: 't', version: '1' }, workspace: dir },
        warn: () => {},
        spawn: () => {
          spawns += 1;
          return undefined;
        },
        startWaitMs: 1,
        connect: async () => ABSENT,
      },
      {
        isClosed: () => false,
        connected: () => events.push('connected'),
        refused: () => events.push('refused'),
        failAll: () => events.push('failAll'),
        down: () => events.push('down'),
      },
    );
    await supervisor.connect();
    expect(spawns).toBe(RESTART_BUDGET);
    expect(events.at(-1)).toBe('down');
    expect(supervisor.budgetAllows()).toBe(false);
  });
});
