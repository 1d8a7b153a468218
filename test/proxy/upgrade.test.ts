/**
 * Which daemon version a proxy uses, with the socket, the lock and the clock
 * in the test's hands: a newer proxy asks an older daemon to hand over and
 * waits for the lock before starting its own; an older one warns once.
 */
import { describe, expect, it } from 'vitest';
import type { HandoffMarker } from '../../src/protocol/handoff.js';
import type { Incarnation } from '../../src/protocol/hello.js';
import { statePaths } from '../../src/protocol/state-dir.js';
import { DaemonUpgrade, HANDOFF_WAIT_MS } from '../../src/proxy/upgrade.js';

const daemon = (pid: number, version: string): Incarnation => ({
  pid,
  version,
  startedAt: '2026-01-01T00:00:00Z',
});

function setup(version: string, agree = true) {
  const state = {
    now: 1_000,
    lockOwner: undefined as number | undefined,
    marker: undefined as HandoffMarker | undefined,
    asked: [] as string[],
    warnings: [] as string[],
  };
  const upgrade = new DaemonUpgrade({
    paths: statePaths('/nonexistent-moor-state'),
    version,
    warn: (line) => state.warnings.push(line),
    now: () => state.now,
    lockOwner: () => state.lockOwner,
    marker: () => state.marker,
    askHandoff: async (socket, v) => {
      state.asked.push(`${socket} ${v}`);
      return agree;
    },
  });
  return { state, upgrade };
}

describe('DaemonUpgrade: a newer proxy', () => {
  it('asks an older daemon to hand over, waits while it holds the lock, then says it upgraded', async () => {
    const { state, upgrade } = setup('0.2.0');
    expect(await upgrade.replaces(daemon(10, '0.1.0'))).toBe(true);
    expect(state.asked).toEqual(['/nonexistent-moor-state/daemon.sock 0.2.0']);
    // Draining: still holding the lock. Reaching it again does not ask twice.
    state.lockOwner = 10;
    expect(upgrade.holdsStart()).toBe(true);
    expect(await upgrade.replaces(daemon(10, '0.1.0'))).toBe(true);
    expect(state.asked).toHaveLength(1);
    // The lock is free: start.
    state.lockOwner = undefined;
    expect(upgrade.holdsStart()).toBe(false);
    expect(await upgrade.replaces(daemon(11, '0.2.0'))).toBe(false);
    expect(state.warnings).toEqual(['moor: daemon upgraded 0.1.0 → 0.2.0']);
  });

  it('waits no longer than HANDOFF_WAIT_MS for the old daemon', async () => {
    const { state, upgrade } = setup('0.2.0');
    await upgrade.replaces(daemon(10, '0.1.0'));
    state.lockOwner = 10;
    state.now += HANDOFF_WAIT_MS;
    expect(upgrade.holdsStart()).toBe(false);
  });

  it('uses an older daemon that cannot hand over, saying so once', async () => {
    const { state, upgrade } = setup('0.2.0', false);
    expect(await upgrade.replaces(daemon(10, '0.1.0'))).toBe(false);
    expect(await upgrade.replaces(daemon(10, '0.1.0'))).toBe(false);
    expect(state.warnings).toEqual([
      'moor: the running daemon is 0.1.0, older than this moor 0.2.0, and cannot hand over; using it',
    ]);
  });

  it('stops asking after three handoffs in one connect loop (others keep starting older daemons)', async () => {
    const { state, upgrade } = setup('0.2.0');
    for (const pid of [10, 11, 12]) expect(await upgrade.replaces(daemon(pid, '0.1.0'))).toBe(true);
    expect(await upgrade.replaces(daemon(13, '0.1.0'))).toBe(false);
    expect(state.asked).toHaveLength(3);
    expect(state.warnings).toEqual([
      'moor: the daemon keeps being started at version 0.1.0, older than this moor 0.2.0; using it',
    ]);
    upgrade.reset();
    expect(await upgrade.replaces(daemon(14, '0.1.0'))).toBe(true);
  });
});

describe('DaemonUpgrade: an older or equal proxy', () => {
  it('never asks a newer daemon to hand over, and warns once', async () => {
    const { state, upgrade } = setup('0.1.0');
    expect(await upgrade.replaces(daemon(20, '0.2.0'))).toBe(false);
    expect(await upgrade.replaces(daemon(21, '0.2.0'))).toBe(false);
    expect(state.asked).toEqual([]);
    expect(state.warnings).toEqual([
      'moor: the running daemon is 0.2.0, newer than this moor 0.1.0; using it',
    ]);
  });

  it('says nothing to a daemon of its own version or one it cannot compare', async () => {
    const { state, upgrade } = setup('0.1.0');
    expect(await upgrade.replaces(daemon(20, '0.1.0'))).toBe(false);
    expect(await upgrade.replaces(daemon(20, 'dev'))).toBe(false);
    expect(state.warnings).toEqual([]);
    expect(state.asked).toEqual([]);
  });

  it('starts no daemon while a handoff to a moor not older is under way: the old daemon starts it', () => {
    const older = setup('0.1.0');
    expect(older.upgrade.holdsStart()).toBe(false);
    older.state.marker = { pid: 10, from: '0.1.0', to: '0.2.0', at: 1_000 };
    expect(older.upgrade.holdsStart()).toBe(true);
    const same = setup('0.2.0');
    same.state.marker = { pid: 10, from: '0.1.0', to: '0.2.0', at: 1_000, startsSuccessor: true };
    expect(same.upgrade.holdsStart()).toBe(true);
    // A daemon from before verified handoffs starts no successor: the proxy of that version does.
    same.state.marker = { pid: 10, from: '0.1.0', to: '0.2.0', at: 1_000 };
    expect(same.upgrade.holdsStart()).toBe(false);
    const newer = setup('0.3.0');
    newer.state.marker = { pid: 10, from: '0.1.0', to: '0.2.0', at: 1_000 };
    expect(newer.upgrade.holdsStart()).toBe(false);
    same.state.marker = undefined;
    expect(same.upgrade.holdsStart()).toBe(false);
  });
});
