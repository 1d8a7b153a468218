/**
 * The moor request headers (`Moor-Session`, `Moor-Workspace`) and the caller
 * scope they name, resolved lazily: most requests (lists, discover, cheap
 * polls) never touch the workspace, so the daemon's room is asked for only
 * when a handler needs it — and at most once per request. Both paths use this
 * one implementation: intake checks the headers before admitting a request,
 * the SDK path's server factory reads them again from the request it serves.
 * `RequestScope` implements every member of `CallerScope` (none is optional),
 * so what the daemon's scope does, the request's does on either path.
 */
import path from 'node:path';
import { MoorError } from '../errors.js';
import type { CallerScope, CallWorkspace } from '../host/call-scope.js';
import type { ClientNamed } from '../protocol/client-named.js';
import { SESSION_KEY_PATTERN } from '../protocol/hello.js';
import { decodeHeaderValue, headerOf } from './wire.js';

export const SESSION_HEADER = 'moor-session';
export const WORKSPACE_HEADER = 'moor-workspace';

/** Who turns a request's headers into a caller scope (the daemon's sessions and rooms). */
export interface ScopeSource {
  /**
   * The scope of one request: session key from the Moor-Session header,
   * workspace from Moor-Workspace (absolute path) or undefined for the daemon
   * default. Throws MoorError('WORKSPACE_INVALID', message) when the
   * workspace is not an existing directory inside the allowed roots.
   */
  scopeForRequest(request: { sessionKey: string | undefined; workspace: string | undefined }): CallerScope;
  /** Told the client a request of `sessionKey` names (its initialize, or a 2026-07-28 `_meta`). */
  onClient?(sessionKey: string, client: ClientNamed): void;
}

type HeaderValue = string | string[] | undefined;

/** One request's Moor-Session and Moor-Workspace, and the scope they name (resolved at most once). */
export class RequestScope implements CallerScope {
  /** The Moor-Session header as sent (undefined when absent): what a posted cancellation must match. */
  readonly requestedSessionKey: string | undefined;
  /** The Moor-Workspace header, decoded; undefined for the daemon's default workspace. */
  readonly workspace: string | undefined;
  readonly #source: ScopeSource;
  #resolved: CallerScope | undefined;

  /** Reads and checks the headers; throws MoorError('BAD_HEADER') for a malformed one. */
  constructor(sessionHeader: HeaderValue, workspaceHeader: HeaderValue, source: ScopeSource) {
    this.requestedSessionKey = sessionKeyOf(sessionHeader);
    this.workspace = workspaceOf(workspaceHeader);
    this.#source = source;
  }

  /** The daemon's scope for these headers, asked for on first use only. */
  resolve(): CallerScope {
    this.#resolved ??= this.#source.scopeForRequest({
      sessionKey: this.requestedSessionKey,
      workspace: this.workspace,
    });
    return this.#resolved;
  }

  // A keyless request may still get the daemon's default session key (scopeForRequest decides).
  get sessionKey(): string | undefined {
    return this.requestedSessionKey ?? this.resolve().sessionKey;
  }

  rooms(): readonly string[] {
    return this.resolve().rooms();
  }

  get roomsChange(): boolean {
    return this.resolve().roomsChange;
  }

  get namesWorkspaces(): boolean {
    return this.resolve().namesWorkspaces;
  }

  hold(): () => void {
    return this.resolve().hold();
  }

  ready(): Promise<void> {
    return this.resolve().ready();
  }

  select(named: string | undefined): Promise<CallWorkspace> {
    return this.resolve().select(named);
  }

  others(): Promise<ReadonlyArray<{ readonly root: string; readonly workspace: CallWorkspace }>> {
    return this.resolve().others();
  }

  writesListed(): Promise<boolean> {
    return this.resolve().writesListed();
  }

  onToolsChanged(listener: () => void): () => void {
    return this.resolve().onToolsChanged(listener);
  }
}

/** The in-band session key of a request body (`params._meta["moor.dev/session"]`), when it has one. */
export const SESSION_META_KEY = 'moor.dev/session';

export function inBandSessionKey(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const params = (body as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const key = (meta as Record<string, unknown>)[SESSION_META_KEY];
  return typeof key === 'string' ? key : undefined;
}

function sessionKeyOf(header: HeaderValue): string | undefined {
  const sessionKey = headerOf(header);
  if (sessionKey !== undefined && !SESSION_KEY_PATTERN.test(sessionKey)) {
    throw new MoorError(
      'BAD_HEADER',
      'Invalid Moor-Session header: a session key is 8-128 characters of [A-Za-z0-9._~-].',
    );
  }
  return sessionKey;
}

function workspaceOf(header: HeaderValue): string | undefined {
  const raw = headerOf(header);
  if (raw === undefined) return undefined;
  const workspace = decodeHeaderValue(raw.trim());
  if (workspace === undefined || workspace.length === 0) {
    throw new MoorError(
      'BAD_HEADER',
      'Invalid Moor-Workspace header: send an absolute path, or =?base64?…?= of its UTF-8 bytes.',
    );
  }
  if (!path.isAbsolute(workspace)) {
    throw new MoorError(
      'BAD_HEADER',
      `Invalid Moor-Workspace header: ${JSON.stringify(workspace)} is not an absolute path.`,
    );
  }
  return workspace;
}
