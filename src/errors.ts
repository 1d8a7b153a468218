/**
 * moor's one error registry. Every error moor raises on purpose names a code
 * from `ERRORS`, and the code alone decides how it crosses each boundary: the
 * JSON-RPC code on the wire, the HTTP status on the endpoint, the exit code of
 * the CLI, and whether trying again can succeed. Codes never change meaning
 * once shipped; `docs/errors.md` lists them and a test holds the two together.
 *
 * This module imports nothing, so every layer (the proxy included) may use it.
 */

export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Streamable HTTP transport-level refusals (bad route, media type, guard). */
  TransportError: -32000,
  /** 2026-07-28: a standard header disagrees with the body, or is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare. */
  MissingClientCapability: -32021,
  /** 2026-07-28: the envelope names a protocol revision the server does not speak. */
  UnsupportedProtocolVersion: -32022,
  /** moor: the daemon refused the request because it is at its in-flight limit. */
  Busy: -32050,
  /** moor: the daemon is shutting down or restarted while the request ran. */
  Unavailable: -32051,
} as const;

export interface ErrorSpec {
  /** The JSON-RPC error code when this error is answered as a JSON-RPC error. */
  readonly jsonRpc: number;
  /** The HTTP status when the endpoint answers this error itself. */
  readonly http: number;
  /** The exit code of a `moor` command that ends with this error. */
  readonly exit: number;
  /** Whether the same request can succeed later without changing it. */
  readonly retryable: boolean;
  /** One line: what happened. */
  readonly meaning: string;
}

/**
 * Exit codes: 2 for a command line moor cannot act on, 4 for a daemon that
 * refuses to start until the user fixes what the message names (starting it
 * again unchanged fails the same way), 1 for every other failure.
 */
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const EXIT_REFUSED_TO_START = 4;

function spec(jsonRpc: number, http: number, exit: number, retryable: boolean, meaning: string): ErrorSpec {
  return { jsonRpc, http, exit, retryable, meaning };
}

const { InvalidParams, InvalidRequest, InternalError, TransportError, Busy, Unavailable } = JsonRpcCode;

export const ERRORS = {
  // Command line
  USAGE: spec(InvalidParams, 400, EXIT_USAGE, false, 'A command-line flag or argument is malformed or out of bounds.'),

  // Workspaces and corpora
  WORKSPACE_INVALID: spec(InvalidParams, 400, EXIT_FAILURE, false, 'The named workspace is not an absolute, existing directory moor may serve.'),
  PATH_OUTSIDE_WORKSPACE: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A path leaves the workspace it must stay inside.'),
  CORPUS_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'The workspace has no decision folder, or the named one does not exist.'),
  CORPUS_NOT_A_DIRECTORY: spec(InvalidParams, 400, EXIT_FAILURE, false, 'The named decision folder is a file, not a directory.'),

  // Decisions pack
  DECISION_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No decision matches the reference.'),
  DECISION_AMBIGUOUS: spec(InvalidParams, 409, EXIT_FAILURE, false, 'The reference matches more than one decision.'),
  DECISION_NUMBER_EXHAUSTED: spec(InternalError, 409, EXIT_FAILURE, false, 'No free decision number is left for a new record.'),

  // Tool calls and resources
  INVALID_ARGUMENTS: spec(InvalidParams, 400, EXIT_FAILURE, false, 'Tool arguments do not match the tool’s input schema.'),
  INVALID_CURSOR: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A pagination cursor is malformed, stale or belongs to another query.'),
  UNKNOWN_TOOL: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No tool of that name is served.'),
  RESOURCE_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No resource has that URI.'),
  NO_INPUT_CHANNEL: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'The tool needs answers and the connection offers no way to ask for them.'),

  // Requests in flight
  CANCELLED: spec(InvalidRequest, 499, EXIT_FAILURE, false, 'The client cancelled the request.'),
  BUSY: spec(Busy, 503, EXIT_FAILURE, true, 'The daemon is at its in-flight limit.'),
  SHUTTING_DOWN: spec(Unavailable, 503, EXIT_FAILURE, true, 'The daemon is shutting down.'),
  INTERRUPTED: spec(Unavailable, 503, EXIT_FAILURE, true, 'The daemon restarted while the request ran; it may or may not have completed.'),

  // HTTP endpoint
  BAD_HEADER: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'A moor request header (Moor-Session, Moor-Workspace) is malformed.'),
  TOKEN_INVALID: spec(TransportError, 401, EXIT_FAILURE, false, 'The bearer token is missing, wrong, or its file is unusable.'),
  LISTEN_FAILED: spec(InternalError, 500, EXIT_FAILURE, true, 'The HTTP endpoint could not listen on the requested address.'),

  // Daemon and socket hop
  HELLO_INVALID: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'The socket’s first line is not a hello this daemon accepts.'),
  DAEMON_UNAVAILABLE: spec(Unavailable, 503, EXIT_FAILURE, true, 'No daemon answers on the socket and none could be started.'),
  TASKS_UNAVAILABLE: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'This daemon serves no tasks.'),
  TASK_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No task of that id is visible to the caller.'),
  STATE_DIR_UNUSABLE: spec(Unavailable, 503, EXIT_REFUSED_TO_START, false, 'The state dir (or a file in it) cannot be created or written, or another user could write it; the daemon refuses to start.'),
  STORE_CORRUPT: spec(Unavailable, 503, EXIT_REFUSED_TO_START, false, 'The task store is not a readable SQLite database; the daemon refuses to start (`--reset-store` moves it aside).'),
  STORE_SCHEMA_NEWER: spec(InternalError, 500, EXIT_FAILURE, false, 'The store was written by a newer moor; this version cannot use it.'),

  // Programming errors caught at composition time
  CONFLICT: spec(InternalError, 500, EXIT_FAILURE, false, 'Two packs define the same tool, prompt or other name.'),
} as const satisfies Record<string, ErrorSpec>;

export type MoorErrorCode = keyof typeof ERRORS;

export function errorSpec(code: MoorErrorCode): ErrorSpec {
  return ERRORS[code];
}

export function isMoorErrorCode(code: unknown): code is MoorErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERRORS, code);
}

export class MoorError extends Error {
  override readonly name: string = 'MoorError';
  constructor(
    readonly code: MoorErrorCode,
    message: string,
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }

  get spec(): ErrorSpec {
    return ERRORS[this.code];
  }

  /** The JSON-RPC `error` member this error answers with. */
  toJsonRpc(): { code: number; message: string; data?: Readonly<Record<string, unknown>> } {
    return { code: this.spec.jsonRpc, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
  }
}

/**
 * An expected failure of a tool call: it becomes a tool result with
 * `isError: true` and this message, never a JSON-RPC error, so the agent
 * reads what to do next.
 */
export class ToolError extends MoorError {
  override readonly name: string = 'ToolError';
}

export function isMoorError(e: unknown): e is MoorError {
  return e instanceof MoorError;
}

/** The CLI exit code for anything a command ends with. */
export function exitCodeOf(error: unknown): number {
  return error instanceof MoorError ? error.spec.exit : EXIT_FAILURE;
}
