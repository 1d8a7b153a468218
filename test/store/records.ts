/**
 * The records the store tests write: a session with an active binding, two
 * parked ones (one never loaded) and a last drop; the fields of a new task
 * but its id and creation time.
 */
import { emptySessionRecord, type SessionRecord } from '../../src/store/session-store.js';

export function binding(root: string, generation: number, decisions: string | null = null) {
  return { root, decisions, generation, lastUsedAt: 100 + generation, decisionCount: 3, problems: 0 };
}

export function sessionRecord(key: string, lastUsedAt = 1000): SessionRecord {
  return {
    ...emptySessionRecord(key, 50),
    active: binding('/a', 3),
    parked: [binding('/b', 2, '/b/adr'), { ...binding('/c', 1), decisionCount: null, problems: null }],
    lastDrop: { reason: 'switched', root: '/b', decisions: '/b/adr', at: 900, rejoinTarget: '/b' },
    generation: 3,
    lastUsedAt,
  };
}

/** A new task's fields but `id` and `createdAt`, its lease held by `inc-a` until `leaseExpiresAt`. */
export function newTaskBase(leaseExpiresAt: number) {
  return {
    ownerKey: 'owner-key-1',
    tool: 'slow',
    retentionMs: 1000,
    pollIntervalMs: 500,
    leaseOwner: 'inc-a',
    leaseExpiresAt,
  };
}
