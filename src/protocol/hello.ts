/**
 * The socket hop's opening exchange. A client's first line is a hello; the
 * daemon answers one line; after that the socket carries newline-delimited
 * MCP exactly like stdio. A control hello asks one question (status, stop,
 * tasks, sessions, handoff) and the socket closes after the answer.
 */

import type { MoorError } from '../errors.js';
import { type OneShotReply, type OneShotRequest, parseOneShotRequest } from './one-shot-hello.js';

export const HELLO_VERSION = 1;

/** Who runs the daemon: proxies compare incarnations to detect restarts. */
export interface Incarnation {
  readonly pid: number;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly version: string;
}

export interface SessionHello {
  readonly moor: typeof HELLO_VERSION;
  /** `moor-` + ≥128 bits of randomness, minted once per proxy process. */
  readonly sessionKey: string;
  readonly client: { readonly name: string; readonly version: string };
  /** Absolute path: the proxy's --workspace or its cwd. */
  readonly workspace?: string;
  /** Absolute path: the proxy's --decisions folder, when given. */
  readonly decisions?: string;
}

export interface ControlHello {
  readonly moor: typeof HELLO_VERSION;
  readonly control: 'status' | 'stop' | 'tasks' | 'sessions' | 'handoff' | 'metrics' | 'one-shot';
  /** With control 'one-shot' (a one-shot `moor decisions …` command): one read-only tool call. */
  readonly oneShot?: OneShotRequest;
  /** With control 'tasks' (`moor tasks …`). */
  readonly tasks?: TasksControlRequest;
  /** With control 'sessions' (`moor sessions …`). */
  readonly sessions?: SessionsControlRequest;
  /** With control 'handoff': the version the asker claims (only for messages; the daemon reads the binary's). */
  readonly version?: string;
  /** With control 'handoff': the asker's CLI entry, whose package.json says which version it really is. */
  readonly binary?: string;
  /** With control 'handoff': the asker itself becomes the daemon (a foreground `moor daemon run`). */
  readonly takeover?: boolean;
}

/** `moor tasks list|get|cancel`: every task of the daemon, or one session key's. */
export interface TasksControlRequest {
  readonly action: 'list' | 'get' | 'cancel';
  readonly taskId?: string;
  /** Only this owner's tasks (default: all; the socket is the user's own). */
  readonly sessionKey?: string;
}

export interface TasksControlReply {
  /** DetailedTask objects plus `tool` and `owner`. */
  readonly tasks?: ReadonlyArray<Record<string, unknown>>;
  readonly error?: { readonly code: string; readonly message: string };
}

/** `moor sessions list|show|drop`: sessions are named by a prefix of their key. */
export interface SessionsControlRequest {
  readonly action: 'list' | 'show' | 'drop';
  /** With show and drop: a prefix matching exactly one session's key. */
  readonly prefix?: string;
}

export interface SessionsControlReply {
  /** list: every session; show and drop: the one named (as it was before a drop). */
  readonly sessions?: readonly SessionSummary[];
  readonly error?: { readonly code: string; readonly message: string };
}

/** A workspace binding of a session, as operators see it. */
export interface SessionWorkspace {
  readonly root: string;
  readonly decisions: string | null;
  /** From the last load of its room; null before the first. */
  readonly decisionCount: number | null;
  readonly problems: number | null;
  /** Whether the session holds its room now. */
  readonly loaded: boolean;
}

/** One session: never its whole key (a key is a credential over HTTP), only a prefix. */
export interface SessionSummary {
  /** The shortest prefix (at least 12 characters) no other listed key shares, and "…" (fewer for a short key). */
  readonly keyPrefix: string;
  readonly active: SessionWorkspace | null;
  /** Most recently used first. */
  readonly parked: readonly SessionWorkspace[];
  /** Connections attached now. */
  readonly connections: number;
  /** ISO 8601. */
  readonly lastUsedAt: string;
  /** False for a session only the store knows (not used since the daemon started). */
  readonly inMemory: boolean;
  readonly lastDrop: { readonly reason: string; readonly root: string; readonly at: string } | null;
  /** The client its latest handshake named (clientInfo); null when none was seen. */
  readonly client: { readonly name: string; readonly version: string } | null;
}

/** A loaded room: one workspace's state, shared by the sessions holding it. */
export interface RoomStatus {
  readonly root: string;
  /** The room's own decisions folder, when it has one (else the workspace's default). */
  readonly decisions: string | null;
  /** Leases on it now (0: in its keep-alive). */
  readonly holders: number;
  /** Whether its decision corpus is loaded (false: not opened yet, or no decision folder). */
  readonly loaded: boolean;
  /** Decisions in its corpus, or null when it is not loaded. */
  readonly decisionCount: number | null;
  /** File-level problems plus relation edges that do not resolve; null when not loaded. */
  readonly problems: number | null;
}

export type Hello = SessionHello | ControlHello;

/** What `moor daemon status` shows; sent in the reply to a control hello 'status'. */
export interface DaemonStatus {
  readonly socket: string;
  readonly httpUrl: string | null;
  /** The file holding HTTP's bearer token (null: no token); `moor daemon status` builds the login link from it. */
  readonly httpTokenFile?: string | null;
  readonly uptimeMs: number;
  readonly connectedClients: number;
  readonly inFlight: number;
  readonly maxInFlight: number;
  readonly workspaces: ReadonlyArray<{ readonly root: string; readonly connections: number }>;
  /** The daemon's version and incarnation (who answers). */
  readonly version?: string;
  readonly incarnation?: Incarnation;
  /** Sessions in memory, most recently used first (`moor sessions list` adds the stored ones); key prefixes only. */
  readonly sessions?: readonly SessionSummary[];
  /** Rooms (loaded workspaces) with what their corpus holds. */
  readonly rooms?: readonly RoomStatus[];
  /** Durable tasks: counts by status and the most recently updated ones. */
  readonly tasks?: TasksStatus;
  /** Which observability features are on. */
  readonly observability?: { readonly metrics: boolean; readonly tracing: boolean };
  /** Resident set, V8 heap reserved and in use, and memory outside the heap, in bytes. */
  readonly memory?: {
    readonly rss: number;
    readonly heapTotal: number;
    readonly heapUsed: number;
    readonly external: number;
  };
}

export interface TasksStatus {
  readonly counts: Readonly<Record<string, number>>;
  /** At most 20, most recently updated first. */
  readonly recent: ReadonlyArray<{
    readonly id: string;
    readonly tool: string;
    readonly status: string;
    /** Session key prefix of the owner. */
    readonly owner: string;
    /** ISO 8601. */
    readonly updatedAt: string;
  }>;
}

export type HelloReply =
  | {
      readonly moor: typeof HELLO_VERSION;
      readonly ok: true;
      readonly incarnation: Incarnation;
      readonly status?: DaemonStatus;
      readonly tasks?: TasksControlReply;
      /** With control 'metrics': the Prometheus text exposition, or why there is none. */
      readonly metrics?:
        | { readonly text: string }
        | { readonly error: { readonly code: string; readonly message: string } };
      readonly sessions?: SessionsControlReply;
      readonly oneShot?: OneShotReply;
    }
  | {
      readonly moor: typeof HELLO_VERSION;
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string };
    };

/** A refusal as a hello reply carries it: the registry code and the message, nothing else. */
export function helloError(refusal: MoorError): { readonly code: string; readonly message: string } {
  return { code: refusal.code, message: refusal.message };
}

/** Session keys are opaque to the daemon but bounded, so a key can be logged and indexed safely. */
export const SESSION_KEY_PATTERN = /^[A-Za-z0-9._~-]{8,128}$/;

function parseSessionsControl(value: unknown): ControlHello | { readonly error: string } {
  const request = value as Record<string, unknown> | undefined;
  if (
    typeof request !== 'object' ||
    request === null ||
    !['list', 'show', 'drop'].includes(request.action as string)
  )
    return { error: 'sessions.action must be "list", "show" or "drop"' };
  const { action, prefix } = request as { action: SessionsControlRequest['action']; prefix?: unknown };
  if (prefix !== undefined && (typeof prefix !== 'string' || !/^[A-Za-z0-9._~-]{1,128}$/.test(prefix)))
    return { error: 'sessions.prefix must be 1-128 characters of [A-Za-z0-9._~-]' };
  if (action !== 'list' && prefix === undefined)
    return { error: `sessions.prefix is required for ${action}` };
  return {
    moor: HELLO_VERSION,
    control: 'sessions',
    sessions: { action, ...(typeof prefix === 'string' ? { prefix } : {}) },
  };
}

/** Parses a hello line; returns an error message for anything else. */
export function parseHello(line: string): Hello | { readonly error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: 'the first line must be a JSON hello object' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'the hello must be a JSON object' };
  const hello = value as Record<string, unknown>;
  if (hello.moor !== HELLO_VERSION)
    return { error: `unsupported hello version ${String(hello.moor)}; this daemon speaks ${HELLO_VERSION}` };
  if ('control' in hello) {
    if (hello.control === 'status' || hello.control === 'stop' || hello.control === 'metrics')
      return { moor: HELLO_VERSION, control: hello.control };
    if (hello.control === 'tasks') {
      const t = hello.tasks as Record<string, unknown> | undefined;
      if (typeof t !== 'object' || t === null || !['list', 'get', 'cancel'].includes(t.action as string))
        return { error: 'tasks.action must be "list", "get" or "cancel"' };
      if (t.action !== 'list' && typeof t.taskId !== 'string') return { error: 'tasks.taskId is required' };
      if (t.sessionKey !== undefined && typeof t.sessionKey !== 'string')
        return { error: 'tasks.sessionKey must be a string' };
      return {
        moor: HELLO_VERSION,
        control: 'tasks',
        tasks: {
          action: t.action as TasksControlRequest['action'],
          ...(typeof t.taskId === 'string' ? { taskId: t.taskId } : {}),
          ...(typeof t.sessionKey === 'string' ? { sessionKey: t.sessionKey } : {}),
        },
      };
    }
    if (hello.control === 'sessions') return parseSessionsControl(hello.sessions);
    if (hello.control === 'one-shot') {
      const oneShot = parseOneShotRequest(hello.oneShot);
      return 'error' in oneShot ? oneShot : { moor: HELLO_VERSION, control: 'one-shot', oneShot };
    }
    if (hello.control === 'handoff') {
      if (typeof hello.version !== 'string' || hello.version.length === 0 || hello.version.length > 64)
        return { error: 'handoff needs the version that takes over' };
      if (hello.binary !== undefined && (typeof hello.binary !== 'string' || hello.binary.length > 4096))
        return { error: 'handoff binary must be a path' };
      if (hello.takeover !== undefined && typeof hello.takeover !== 'boolean')
        return { error: 'handoff takeover must be true or false' };
      return {
        moor: HELLO_VERSION,
        control: 'handoff',
        version: hello.version,
        ...(typeof hello.binary === 'string' ? { binary: hello.binary } : {}),
        ...(hello.takeover === true ? { takeover: true } : {}),
      };
    }
    return {
      error: 'control must be "status", "stop", "tasks", "sessions", "handoff", "metrics" or "one-shot"',
    };
  }
  if (typeof hello.sessionKey !== 'string' || !SESSION_KEY_PATTERN.test(hello.sessionKey)) {
    return { error: 'sessionKey must be 8-128 characters of [A-Za-z0-9._~-]' };
  }
  const client = hello.client as Record<string, unknown> | undefined;
  if (
    typeof client !== 'object' ||
    client === null ||
    typeof client.name !== 'string' ||
    typeof client.version !== 'string'
  ) {
    return { error: 'client must be {name, version}' };
  }
  if (
    hello.workspace !== undefined &&
    (typeof hello.workspace !== 'string' || !hello.workspace.startsWith('/'))
  ) {
    return { error: 'workspace must be an absolute path' };
  }
  return {
    moor: HELLO_VERSION,
    sessionKey: hello.sessionKey,
    client: { name: client.name, version: client.version },
    ...(typeof hello.workspace === 'string' ? { workspace: hello.workspace } : {}),
    ...(typeof hello.decisions === 'string' ? { decisions: hello.decisions } : {}),
  };
}
