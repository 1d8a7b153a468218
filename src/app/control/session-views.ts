/**
 * Sessions for operators: the snapshots the session manager gives, shaped
 * for `moor daemon status` and `moor sessions`, and the key prefixes that
 * name them. A session key is a credential over HTTP (whoever sends it acts
 * as that session), so no answer carries a whole key: a session is shown by
 * the shortest prefix (at least 12 characters) that tells it from the other
 * listed sessions (protocol/session-prefix.ts), and named by any prefix of it.
 */
import { MoorError } from '../../errors.js';
import {
  helloError,
  type SessionSummary,
  type SessionsControlReply,
  type SessionsControlRequest,
  type SessionWorkspace,
} from '../../protocol/hello.js';
import { keyPrefix, MIN_PREFIX_CHARS, uniqueKeyPrefixes } from '../../protocol/session-prefix.js';
import type { HeldBinding, SessionSnapshot } from '../../sessions/manager-types.js';

function workspaceView(binding: HeldBinding): SessionWorkspace {
  const { root, decisions, decisionCount, problems, loaded } = binding;
  return { root, decisions, decisionCount, problems, loaded };
}

/** One session as operators see it, named by `prefix` (see sessionSummaries). */
export function sessionSummary(snapshot: SessionSnapshot, prefix = keyPrefix(snapshot.key)): SessionSummary {
  const drop = snapshot.lastDrop;
  return {
    keyPrefix: prefix,
    active: snapshot.active && workspaceView(snapshot.active),
    parked: snapshot.parked.map(workspaceView),
    connections: snapshot.attachments,
    lastUsedAt: new Date(snapshot.lastUsedAt).toISOString(),
    inMemory: snapshot.inMemory,
    lastDrop: drop && { reason: drop.reason, root: drop.root, at: new Date(drop.at).toISOString() },
    client: snapshot.client,
  };
}

/** A listing's sessions, each named by the shortest prefix that no other of them shares. */
export function sessionSummaries(snapshots: readonly SessionSnapshot[]): SessionSummary[] {
  const prefixes = uniqueKeyPrefixes(snapshots.map((s) => s.key));
  return snapshots.map((s) => sessionSummary(s, prefixes.get(s.key)));
}

/** How many characters tell `key` apart from every other key of `keys` (at least the usual 12). */
function distinguishingLength(key: string, keys: readonly string[]): number {
  let length = MIN_PREFIX_CHARS;
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
    if (request.action === 'list') return { sessions: sessionSummaries(all) };
    const named = matchPrefix(all, request.prefix ?? '');
    // Dropped between the listing and the drop (or by another operator): the same answer as unknown.
    if (request.action === 'drop' && !(await admin.drop(named.key))) matchPrefix([], request.prefix ?? '');
    // Named as the listing names it, so the prefix shown can be pasted back.
    const prefix = uniqueKeyPrefixes(all.map((s) => s.key)).get(named.key);
    return { sessions: [sessionSummary(named, prefix)] };
  } catch (error) {
    if (error instanceof MoorError) return { error: helloError(error) };
    throw error;
  }
}
