/**
 * What operators see of sessions and how they remove one: a session's
 * snapshot (its bindings, which rooms it holds, who is attached) and the
 * deletion of its stored record.
 */
import { isMoorError } from '../errors.js';
import {
  DAY_MS,
  DEFAULT_SESSION_RETENTION_DAYS,
  emptySessionRecord,
  type SessionClient,
  type SessionRecord,
  type SessionStore,
  type StoredBinding,
} from '../store/session-store.js';
import type { ActiveChanges } from './active-changes.js';
import { bindingId, toWorkspaceBinding } from './bindings.js';
import type { SessionManagerOptions, SessionSnapshot, WorkspaceList } from './manager-types.js';
import type { RoomHandle, SessionEntry, SessionTable } from './session-entry.js';

/** Far below any real clock: a record saved with it is the only one a sweep just above it takes. */
const TOMBSTONE_USED_AT = Number.MIN_SAFE_INTEGER;

/**
 * Deletes one session from the store through the operations every store
 * has: the record is marked unused since the dawn of time, then swept.
 */
export async function deleteStored(store: SessionStore, key: string): Promise<void> {
  await store.save({ ...emptySessionRecord(key, TOMBSTONE_USED_AT), lastUsedAt: TOMBSTONE_USED_AT });
  await store.sweep(TOMBSTONE_USED_AT + 1);
}

export function snapshotOf(
  record: SessionRecord,
  live: {
    held(id: string): boolean;
    readonly attachments: number;
    readonly lastUsedAt: number;
    readonly inMemory: boolean;
  },
): SessionSnapshot {
  const view = (b: StoredBinding) => ({ ...toWorkspaceBinding(b), loaded: live.held(bindingId(b)) });
  return {
    key: record.key,
    active: record.active && view(record.active),
    parked: record.parked.map(view),
    lastDrop: record.lastDrop,
    attachments: live.attachments,
    lastUsedAt: live.lastUsedAt,
    inMemory: live.inMemory,
    client: record.client,
  };
}

/** The sessions in memory that are stored (a dropped one begins again on its next call). */
export function liveSnapshots<H extends RoomHandle>(entries: Iterable<SessionEntry<H>>): SessionSnapshot[] {
  return [...entries]
    .filter((entry) => entry.stored && !entry.provisional)
    .map((entry) =>
      snapshotOf(entry.record, {
        held: (id) => entry.rooms.has(id),
        attachments: entry.attachments,
        lastUsedAt: entry.lastUsedAt,
        inMemory: true,
      }),
    );
}

/** Idle unattached sessions let go of rooms, then of memory; stored ones unused for the retention are swept. */
export async function reapSessions<H extends RoomHandle>(
  sessions: SessionTable<H>,
  options: SessionManagerOptions<H>,
  now: number,
): Promise<{ released: number; forgotten: number; swept: number }> {
  const { released, forgotten } = sessions.reap(now, {
    holdIdleMs: options.holdIdleMs ?? 5 * 60_000,
    forgetIdleMs: options.forgetIdleMs ?? DAY_MS,
  });
  const retentionDays = options.retentionDays ?? DEFAULT_SESSION_RETENTION_DAYS;
  const swept = await options.store.sweep(now - retentionDays * DAY_MS);
  return { released, forgotten, swept };
}

/** A record's bindings as a session's workspace list. */
export function workspaceListOf(record: SessionRecord): WorkspaceList {
  return {
    active: record.active && toWorkspaceBinding(record.active),
    parked: record.parked.map(toWorkspaceBinding),
    lastDrop: record.lastDrop,
  };
}

/** `record` naming `client`, or undefined when it already does. */
export function withClient(record: SessionRecord, client: SessionClient): SessionRecord | undefined {
  const known = record.client;
  if (known !== null && known.name === client.name && known.version === client.version) return undefined;
  return { ...record, client };
}

/** `inMemory` plus the sessions only the store knows, most recently used first. */
export async function withStoredSessions(
  inMemory: readonly SessionSnapshot[],
  store: SessionStore,
): Promise<SessionSnapshot[]> {
  const known = new Set(inMemory.map((s) => s.key));
  const storedOnly: SessionSnapshot[] = [];
  for (const summary of await store.list()) {
    if (known.has(summary.key)) continue;
    const record = await store.load(summary.key);
    if (record === undefined) continue;
    storedOnly.push(
      snapshotOf(record, {
        held: () => false,
        attachments: 0,
        lastUsedAt: record.lastUsedAt,
        inMemory: false,
      }),
    );
  }
  return [...inMemory, ...storedOnly].sort((a, b) => b.lastUsedAt - a.lastUsedAt || (a.key < b.key ? -1 : 1));
}

/** Takes a record another daemon wrote as this entry's; rooms of bindings it no longer has are released. */
export function adoptStored<H extends RoomHandle>(entry: SessionEntry<H>, stored: SessionRecord): void {
  const kept = new Set([stored.active, ...stored.parked].flatMap((b) => (b === null ? [] : [bindingId(b)])));
  entry.record = stored;
  entry.stored = true;
  entry.provisional = false;
  for (const id of [...entry.rooms.keys()]) if (!kept.has(id)) entry.releaseRoom(id);
}

/**
 * Forgets a session (an operator's drop): its record leaves the store, its
 * rooms are released, a connect still loading is superseded. A connection
 * still attached keeps its key; its next call starts the session again
 * (ensureStarted). Returns false when neither memory nor store knew it.
 */
export async function dropSession<H extends RoomHandle>(
  sessions: SessionTable<H>,
  store: SessionStore,
  changes: ActiveChanges,
  sessionKey: string,
  now: number,
): Promise<boolean> {
  const entry = sessions.loaded(sessionKey);
  if (entry === undefined) {
    if ((await store.load(sessionKey)) === undefined) return false;
    await deleteStored(store, sessionKey);
    return true;
  }
  entry.intent += 1;
  await entry.lock.run(async () => {
    const previous = entry.record.active;
    await deleteStored(store, sessionKey);
    entry.record = emptySessionRecord(sessionKey, now);
    entry.stored = false;
    entry.provisional = false;
    entry.releaseRooms();
    changes.announce(sessionKey, previous, null);
    if (entry.attachments === 0) sessions.forget(sessionKey);
  });
  return true;
}

/** A store that cannot be reached cannot have changed either (its bus is down too): this daemon's copy serves. */
export function keepCopyOnOutage(error: unknown): void {
  if (!(isMoorError(error) && error.code === 'STORE_UNAVAILABLE')) throw error;
}
