/**
 * Which scope an HTTP request runs in, the policy the daemon applies to the
 * `Moor-Session` and `Moor-Workspace` headers: the session's scope (the
 * header's key, else `--http-default-session`), where Moor-Workspace names
 * the workspace of calls that name none — a connected one, or else that
 * folder served directly for the request; without a session, the one
 * workspace the header names (or the daemon default), where naming another
 * needs a session.
 *
 * Session-less requests hold their room with `Rooms.keep`: held
 * `--room-keepalive-ms` after the last request, by the room's own timer.
 */
import type { CallerScope } from '../../host/call-scope.js';
import type { RoomKey, Rooms } from '../../sessions/rooms.js';
import { sessionRequired } from '../../sessions/session-errors.js';
import type { WorkspacePolicy } from '../../sessions/workspace-path.js';
import type { DaemonSessions, RoomContents } from './daemon-sessions.js';

export interface HttpScopesOptions {
  readonly rooms: Rooms<RoomContents>;
  readonly sessions: DaemonSessions;
  readonly policy: WorkspacePolicy;
  /** The daemon's default workspace: what a request without Moor-Workspace runs in. */
  readonly defaultRoom: RoomKey;
  /** `--http-default-session`: the session of requests that name none. */
  readonly defaultSession: string | undefined;
  /** Throws when the default workspace may not be served (a root daemon started in a system folder). */
  readonly defaultServable: () => void;
}

/** Checked Moor-Workspace values kept (a client sends the same few again and again). */
const CHECKED_LIMIT = 1024;

export class HttpScopes {
  readonly #options: HttpScopesOptions;
  readonly #checked = new Map<string, string>();

  constructor(options: HttpScopesOptions) {
    this.#options = options;
  }

  /** The scope of one request; throws MoorError('WORKSPACE_INVALID') for a Moor-Workspace the policy refuses. */
  scopeForRequest({
    sessionKey,
    workspace,
  }: {
    sessionKey: string | undefined;
    workspace: string | undefined;
  }): CallerScope {
    const { sessions, rooms, defaultRoom, defaultSession, defaultServable } = this.#options;
    if (workspace === undefined) defaultServable();
    const key: RoomKey = workspace === undefined ? defaultRoom : { root: this.#checkedRoot(workspace) };
    const session = sessionKey ?? defaultSession;
    if (session === undefined) return this.#withoutSession(key);
    const fallback =
      workspace === undefined
        ? undefined
        : { root: key.root, direct: () => sessions.roomWorkspace(rooms.keep(key)) };
    return sessions.httpScope(session, defaultRoom, fallback);
  }

  // Without a session there is one workspace: naming another needs a session's connections.
  #withoutSession(key: RoomKey): CallerScope {
    const { sessions, rooms } = this.#options;
    return sessions.roomScope(rooms.keep(key), () => sessionRequired('The workspace argument'));
  }

  #checkedRoot(workspace: string): string {
    const cached = this.#checked.get(workspace);
    if (cached !== undefined) return cached;
    const root = this.#options.policy.check(workspace, { label: 'Moor-Workspace' });
    if (this.#checked.size > CHECKED_LIMIT) this.#checked.clear();
    this.#checked.set(workspace, root);
    return root;
  }
}
