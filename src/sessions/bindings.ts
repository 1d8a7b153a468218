/**
 * The session record's transitions, as pure functions: activating a
 * workspace (the previous one parked, the least recently used parked one
 * evicted past the bound), dropping one, marking a parked one used. The
 * manager decides *when* (under its lock, after its generation checks);
 * these decide *what*, deterministically: parked bindings are an ordered
 * list, most recently used first, so eviction never depends on map order
 * or on two timestamps being equal.
 */
import type { DropReason, SessionDrop, SessionRecord, StoredBinding } from '../store/session-store.js';
import { type RoomKey, roomId } from './rooms.js';

export const DEFAULT_MAX_PARKED = 8;

/** Counts a loaded room reports for its workspace (pack-agnostic: the loader's summary callback makes them). */
export interface RoomSummary {
  readonly decisionCount: number;
  readonly problems: number;
}

/** A binding as the session layer hands it out (tool results, list_workspaces). */
export interface WorkspaceBinding {
  readonly root: string;
  readonly decisions: string | null;
  readonly generation: number;
  /** From the last load of its room; null when it has not been loaded yet (e.g. after a restart). */
  readonly decisionCount: number | null;
  readonly problems: number | null;
}

export interface Transition {
  readonly record: SessionRecord;
  /** Bindings the transition took away (their rooms are to be released). */
  readonly removed: readonly StoredBinding[];
}

export interface Activation extends Transition {
  /** The binding now active. */
  readonly active: StoredBinding;
}

export function keyOf(binding: StoredBinding): RoomKey {
  return binding.decisions === null
    ? { root: binding.root }
    : { root: binding.root, decisions: binding.decisions };
}

export function bindingId(binding: StoredBinding): string {
  return roomId(keyOf(binding));
}

export function toWorkspaceBinding(binding: StoredBinding): WorkspaceBinding {
  const { root, decisions, generation, decisionCount, problems } = binding;
  return { root, decisions, generation, decisionCount, problems };
}

/** Every binding of the session, the active one first. */
export function allBindings(record: SessionRecord): StoredBinding[] {
  return record.active === null ? [...record.parked] : [record.active, ...record.parked];
}

export function findById(record: SessionRecord, id: string): StoredBinding | undefined {
  return allBindings(record).find((b) => bindingId(b) === id);
}

/** The binding whose root is `root`: the active one when it matches, else the most recently used parked one. */
export function findByRoot(record: SessionRecord, root: string): StoredBinding | undefined {
  return allBindings(record).find((b) => b.root === root);
}

function dropOf(binding: StoredBinding, reason: DropReason, at: number): SessionDrop {
  // Switched-away and evicted workspaces can simply be connected again; a disconnect was meant,
  // and a vanished folder cannot be rejoined, so those carry no rejoin target.
  const rejoinTarget = reason === 'switched' || reason === 'evicted' ? binding.root : undefined;
  return { reason, root: binding.root, decisions: binding.decisions, at, rejoinTarget };
}

/**
 * Makes `key` the active binding. The previous active one goes to the front
 * of the parked list; past `maxParked`, parked bindings are evicted from the
 * back (least recently used). Connecting to the binding that is already
 * active keeps its generation: nothing was switched.
 */
export function activate(
  record: SessionRecord,
  key: RoomKey,
  summary: RoomSummary | null,
  now: number,
  maxParked: number,
): Activation {
  const id = roomId(key);
  const counts = (b: StoredBinding | undefined) =>
    summary ?? { decisionCount: b?.decisionCount ?? null, problems: b?.problems ?? null };
  if (record.active !== null && bindingId(record.active) === id) {
    const active = { ...record.active, ...counts(record.active), lastUsedAt: now };
    return { record: { ...record, active, lastUsedAt: now }, removed: [], active };
  }
  const generation = record.generation + 1;
  const before = record.parked.find((b) => bindingId(b) === id);
  const active: StoredBinding = {
    root: key.root,
    decisions: key.decisions ?? null,
    generation,
    lastUsedAt: now,
    ...counts(before),
  };
  const parked = record.parked.filter((b) => bindingId(b) !== id);
  if (record.active !== null) parked.unshift({ ...record.active, lastUsedAt: now });
  const removed = parked.splice(Math.max(0, maxParked));
  let lastDrop = record.lastDrop;
  if (removed[0] !== undefined) lastDrop = dropOf(removed[0], 'evicted', now);
  else if (record.active !== null) lastDrop = dropOf(record.active, 'switched', now);
  return { record: { ...record, active, parked, lastDrop, generation, lastUsedAt: now }, removed, active };
}

/**
 * Ends the binding `id` for `reason`. Losing the active binding always
 * records the drop; losing a parked one records it only while another
 * binding is active, so that with no active workspace the last drop keeps
 * explaining why there is none.
 */
export function drop(record: SessionRecord, id: string, reason: DropReason, now: number): Transition {
  const target = findById(record, id);
  if (target === undefined) return { record, removed: [] };
  const wasActive = record.active !== null && bindingId(record.active) === id;
  const active = wasActive ? null : record.active;
  const parked = record.parked.filter((b) => bindingId(b) !== id);
  const lastDrop = wasActive || active !== null ? dropOf(target, reason, now) : record.lastDrop;
  return {
    record: { ...record, active, parked, lastDrop, generation: record.generation + 1, lastUsedAt: now },
    removed: [target],
  };
}

/** A parked binding was used by name: it moves to the front of the parked list. */
export function markParkedUsed(record: SessionRecord, id: string, now: number): SessionRecord {
  const index = record.parked.findIndex((b) => bindingId(b) === id);
  const used = record.parked[index];
  if (used === undefined) return record;
  const parked = [{ ...used, lastUsedAt: now }, ...record.parked.filter((_, i) => i !== index)];
  return { ...record, parked, lastUsedAt: now };
}

/** Records fresh counts for a binding whose room was just loaded. */
export function withSummary(record: SessionRecord, id: string, summary: RoomSummary): SessionRecord {
  const update = (b: StoredBinding) => (bindingId(b) === id ? { ...b, ...summary } : b);
  return {
    ...record,
    active: record.active === null ? null : update(record.active),
    parked: record.parked.map(update),
  };
}

/** A fresh session's first binding (a hello's workspace or the daemon default), not loaded yet. */
export function initialRecord(record: SessionRecord, key: RoomKey, now: number): SessionRecord {
  return activate(record, key, null, now, DEFAULT_MAX_PARKED).record;
}

/** Whether `id` is a parked binding other than the most recently used one (using it reorders the parked). */
export function parkedBehindFront(record: SessionRecord, id: string): boolean {
  const front = record.parked[0];
  const active = record.active;
  return front !== undefined && bindingId(front) !== id && (active === null || bindingId(active) !== id);
}
