/**
 * Sessions for operators: the snapshots the session manager gives, shaped
 * for `moor daemon status` and `moor sessions`, and the key prefixes that
 * name them. A session key is a credential over HTTP (whoever sends it acts
 * as that session), so no answer carries a whole key: a session is shown by
 * the first 12 characters of its key and named by any prefix of it.
 */
import { MoorError } from '../../errors.js';
import {
  helloError,
  type SessionSummary,
  type SessionsControlReply,
  type SessionsControlRequest,
  type SessionWorkspace,
} from '../../protocol/hello.js';
import type { HeldBinding, SessionSnapshot } from '../../sessions/manager-types.js';

export const KEY_PREFIX_LENGTH = 12;

/** The first `length` characters of the key and "…"; a short key keeps at least 4 characters hidden. */
export function keyPrefix(key: string, length = KEY_PREFIX_LENGTH): string {
  return `${key.slice(0, Math.max(1, Math.min(length, key.length - 4)))}…`;
}

function workspaceView(binding: HeldBinding): SessionWorkspace {
  const { root, decisions, decisionCount, problems, loaded } = binding;
  return { root, decisions, decisionCount, problems, loaded };
}

export function sessionSummary(snapshot: SessionSnapshot, prefixLength = KEY_PREFIX_LENGTH): SessionSummary {
  const drop = snapshot.lastDrop;
  return {
    keyPrefix: keyPrefix(snapshot.key, prefixLength),
    active: snapshot.active && workspaceView(snapshot.active),
    parked: snapshot.parked.map(workspaceView),
    connections: snapshot.attachments,
    lastUsedAt: new Date(snapshot.lastUsedAt).toISOString(),
    inMemory: snapshot.inMemory,
    lastDrop: drop && { reason: drop.reason, root: drop.root, at: new Date(drop.at).toISOString() },
  };
}

/** How many characters tell `key` apart from every other key of `keys` (at least the usual 12). */
function distinguishingLength(key: string, keys: readonly string[]): number {
  let length = KEY_PREFIX_LENGTH;
  for (const other of keys) {
    if (other === key) continue;
    let common = 0;
    while (common < key.length && key[common] === other[common]) common += 1;
    length = Math.max(length, common + 1);
  }
  return length;
}

/**
 * The one session whose key starts with `prefix` (a trailing "…" copied from
 * a listing is ignored). None: SESSION_NOT_FOUND; several: SESSION_AMBIGUOUS,
 * naming each by a prefix long enough to tell them apart.
 */
export function matchPrefix(snapshots: readonly SessionSnapshot[], prefix: string): SessionSnapshot {
  const wanted = prefix.replace(/…$/, '');
  const matches = snapshots.filter((s) => s.key.startsWith(wanted));
  const [only] = matches;
  if (only === undefined) {
    throw new MoorError(
      'SESSION_NOT_FOUND',
      `no session's key starts with "${wanted}"; see moor sessions list`,
      {
        prefix: wanted,
      },
    );
  }
  if (matches.length > 1) {
    const keys = matches.map((s) => s.key);
    const named = keys.map((key) => keyPrefix(key, distinguishingLength(key, keys)));
    throw new MoorError(
      'SESSION_AMBIGUOUS',
      `"${wanted}" matches ${matches.length} sessions: ${named.join(', ')}; give more of the key`,
      { prefix: wanted, matches: named },
    );
  }
  return only;
}

/** What `moor sessions` reaches: every session (memory and store) and the drop of one. */
export interface SessionsAdmin {
  allSnapshots(): Promise<SessionSnapshot[]>;
  drop(sessionKey: string): Promise<boolean>;
}

/** Answers a control hello 'sessions': list, show or drop, errors as registry codes. */
export async function sessionsControl(
  admin: SessionsAdmin,
  request: SessionsControlRequest,
): Promise<SessionsControlReply> {
  try {
    const all = await admin.allSnapshots();
    if (request.action === 'list') return { sessions: all.map((s) => sessionSummary(s)) };
    const named = matchPrefix(all, request.prefix ?? '');
    // Dropped between the listing and the drop (or by another operator): the same answer as unknown.
    if (request.action === 'drop' && !(await admin.drop(named.key))) matchPrefix([], request.prefix ?? '');
    return { sessions: [sessionSummary(named)] };
  } catch (error) {
    if (error instanceof MoorError) return { error: helloError(error) };
    throw error;
  }
}
