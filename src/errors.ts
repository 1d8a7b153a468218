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

const {
  ParseError,
  InvalidParams,
  InvalidRequest,
  InternalError,
  TransportError,
  MissingClientCapability,
  Busy,
  Unavailable,
} = JsonRpcCode;

// biome-ignore format: the registry reads best as a table, one code per line
export const ERRORS = {
  // Command line
  USAGE: spec(InvalidParams, 400, EXIT_USAGE, false, 'A command-line flag or argument is malformed or out of bounds.'),
  CONFIG_INVALID: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A client config file `moor config --write` would merge into is not valid JSON/TOML (or unreadable); it is left untouched.'),
  OPTION_CONFLICT: spec(InvalidParams, 400, EXIT_FAILURE, false, 'Two command-line options were given that do not go together.'),

  // Workspaces and corpora
  WORKSPACE_INVALID: spec(InvalidParams, 400, EXIT_FAILURE, false, 'The named workspace is not an absolute, existing directory moor may serve.'),
  PATH_OUTSIDE_WORKSPACE: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A path leaves the workspace it must stay inside.'),
  CORPUS_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'The workspace has no decision folder, or the named one does not exist.'),
  CORPUS_NOT_A_DIRECTORY: spec(InvalidParams, 400, EXIT_FAILURE, false, 'The named decision folder is a file, not a directory.'),
  GIT_FAILED: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'git could not list the changed files (not a repository, or an unknown revision).'),
  GIT_REF_NOT_FOUND: spec(InvalidParams, 400, EXIT_USAGE, false, 'The git revision a command compares against (--against) does not exist in the repository.'),

  // Sessions and their workspace bindings
  SESSION_REQUIRED: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'The request needs a session key (Moor-Session, or moor stdio) and has none.'),
  NO_ACTIVE_WORKSPACE: spec(InvalidRequest, 409, EXIT_FAILURE, false, 'The session has no active workspace to run the call in.'),
  WORKSPACE_NOT_CONNECTED: spec(InvalidParams, 404, EXIT_FAILURE, false, 'The named workspace is neither the session’s active nor one of its parked workspaces.'),
  WORKSPACE_UNAVAILABLE: spec(InvalidRequest, 410, EXIT_FAILURE, false, 'A workspace the session was bound to is gone (its folder no longer exists); the binding was dropped.'),
  CONNECT_SUPERSEDED: spec(InvalidRequest, 409, EXIT_FAILURE, false, 'A newer connect or disconnect of the same session overtook this connect; it was not installed.'),
  SESSION_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No session of the daemon has a key starting with that prefix.'),
  SESSION_AMBIGUOUS: spec(InvalidParams, 409, EXIT_FAILURE, false, 'The key prefix matches more than one session; the message lists them.'),
  WRITES_NOT_ALLOWED: spec(InvalidRequest, 403, EXIT_FAILURE, false, 'The tool writes into the workspace, and the daemon allows no writes there.'),

  // Decisions pack
  DECISION_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No decision matches the reference.'),
  DECISION_AMBIGUOUS: spec(InvalidParams, 409, EXIT_FAILURE, false, 'The reference matches more than one decision.'),
  DECISION_UNREADABLE: spec(InvalidParams, 422, EXIT_FAILURE, false, 'The reference names a file in the decision folder that could not be read as a decision.'),
  DECISION_NUMBER_EXHAUSTED: spec(InternalError, 409, EXIT_FAILURE, false, 'No free decision number is left for a new record.'),
  INDEX_MARKERS_BROKEN: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A file holds the decision index start marker without its end marker (or the other way round).'),

  // Tool calls and resources
  INVALID_ARGUMENTS: spec(InvalidParams, 400, EXIT_FAILURE, false, 'Tool or prompt arguments do not match their schema.'),
  INVALID_CURSOR: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A pagination cursor is malformed, stale or belongs to another query.'),
  UNKNOWN_TOOL: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No tool of that name is served.'),
  RESOURCE_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No resource has that URI.'),
  UNKNOWN_PROMPT: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No prompt of that name is served.'),
  UNKNOWN_RESOURCE_TEMPLATE: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No resource template has that URI template.'),
  INVALID_REQUEST_STATE: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A requestState was not issued for this request.'),
  SKILL_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No skill is served at that SKILL.md URI.'),
  NO_INPUT_CHANNEL: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'The tool needs answers and the connection offers no way to ask for them.'),
  MISSING_CLIENT_CAPABILITY: spec(MissingClientCapability, 400, EXIT_FAILURE, false, 'The request needs a client capability it did not declare.'),

  // Requests in flight
  CANCELLED: spec(InvalidRequest, 499, EXIT_FAILURE, false, 'The client cancelled the request.'),
  BUSY: spec(Busy, 503, EXIT_FAILURE, true, 'The daemon is at its in-flight limit.'),
  SHUTTING_DOWN: spec(Unavailable, 503, EXIT_FAILURE, true, 'The daemon is shutting down.'),
  INTERRUPTED: spec(Unavailable, 503, EXIT_FAILURE, true, 'The daemon restarted while the request ran; it may or may not have completed.'),

  // HTTP endpoint
  BAD_HEADER: spec(InvalidParams, 400, EXIT_FAILURE, false, 'A moor request header (Moor-Session, Moor-Workspace) is malformed.'),
  TOKEN_INVALID: spec(TransportError, 401, EXIT_FAILURE, false, 'The bearer token is missing, wrong, or its file is unusable.'),
  TOKEN_WITHHELD: spec(TransportError, 401, EXIT_FAILURE, false, 'The token is not handed out: no daemon of yours listens at the URL the client is about to call.'),
  LISTEN_LIMIT: spec(InvalidRequest, 429, EXIT_FAILURE, false, 'A listen stream asks for more resource URIs than one stream, its session, or the daemon may hold.'),
  LISTEN_FAILED: spec(InternalError, 500, EXIT_FAILURE, true, 'The HTTP endpoint could not listen on the requested address.'),

  // Daemon and socket hop
  CONNECTION_CLOSED: spec(Unavailable, 503, EXIT_FAILURE, true, 'The line-delimited connection is closed; nothing more can be sent on it.'),
  MESSAGE_TOO_LARGE: spec(InvalidRequest, 413, EXIT_FAILURE, false, 'A line-delimited message exceeded the size limit; the rest of that line is discarded.'),
  PARSE_ERROR: spec(ParseError, 400, EXIT_FAILURE, false, 'A line-delimited message is not JSON.'),
  MESSAGE_TOO_DEEP: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'A message nests arrays or objects deeper than moor accepts.'),
  INVALID_MESSAGE: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'A line-delimited message is JSON but not a JSON-RPC 2.0 message.'),
  HELLO_INVALID: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'The socket’s first line is not a hello this daemon accepts.'),
  DAEMON_UNAVAILABLE: spec(Unavailable, 503, EXIT_FAILURE, true, 'No daemon answers on the socket and none could be started.'),
  TASKS_UNAVAILABLE: spec(InvalidRequest, 400, EXIT_FAILURE, false, 'This daemon serves no tasks.'),
  DOWNGRADE_REFUSED: spec(InvalidRequest, 409, EXIT_FAILURE, false, '`moor daemon start` or `restart` of a moor older than the running daemon; the newer daemon keeps running (`--force` replaces it).'),
  HANDOFF_REFUSED: spec(InvalidRequest, 409, EXIT_FAILURE, false, 'A handoff was refused: the binary the asker names is not a newer moor (its package.json says so), cannot be verified (another user owns it, others may write it, or it cannot be read), or, for a foreground takeover, is older.'),
  METRICS_OFF: spec(InvalidRequest, 404, EXIT_FAILURE, false, 'This daemon runs without metrics (started with `MOOR_METRICS=0`).'),
  OTHER_BUILD: spec(InvalidRequest, 409, EXIT_FAILURE, false, 'A one-shot command asked a daemon that runs another build of moor; the command answers in its own process instead.'),
  TASK_NOT_FOUND: spec(InvalidParams, 404, EXIT_FAILURE, false, 'No task of that id is visible to the caller.'),
  TASK_EXISTS: spec(InternalError, 500, EXIT_FAILURE, false, 'The store already holds a task with that id.'),
  TASK_STOPPED: spec(InternalError, 500, EXIT_FAILURE, false, 'A running task’s work was stopped: its client cancelled it or the daemon shut down.'),
  TASKS_CLOSED: spec(InternalError, 503, EXIT_FAILURE, true, 'The task service has closed for shutdown and starts no new task.'),
  STATE_DIR_UNUSABLE: spec(Unavailable, 503, EXIT_REFUSED_TO_START, false, 'The state dir (or a file in it) cannot be created or written, or another user could write it; the daemon refuses to start.'),
  STORE_CORRUPT: spec(Unavailable, 503, EXIT_REFUSED_TO_START, false, 'The task store is not a readable SQLite database; the daemon refuses to start (`--reset-store` moves it aside).'),
  STORE_SCHEMA_NEWER: spec(InternalError, 500, EXIT_FAILURE, false, 'The store was written by a newer moor; this version cannot use it.'),
  STORE_UNAVAILABLE: spec(Unavailable, 503, EXIT_FAILURE, true, 'The store’s database server cannot be reached.'),

  // Programming errors caught at composition time
  CONFLICT: spec(InternalError, 500, EXIT_FAILURE, false, 'Two packs define the same tool, prompt or other name.'),
  INTERNAL: spec(InternalError, 500, EXIT_FAILURE, false, 'moor failed unexpectedly; its log has the details.'),
} as const satisfies Record<string, ErrorSpec>;

export type MoorErrorCode = keyof typeof ERRORS;

export function errorSpec(code: MoorErrorCode): ErrorSpec {
  return ERRORS[code];
}

export function isMoorErrorCode(code: unknown): code is MoorErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERRORS, code);
}

/**
 * Marks moor's errors across copies of this module: the daemon's bundle
 * carries its own copy, so `instanceof` alone cannot tell a bundled daemon's
 * error from any other in the CLI that loaded it.
 */
const MOOR_ERROR = Symbol.for('moor.error');

export class MoorError extends Error {
  override readonly name: string = 'MoorError';
  readonly [MOOR_ERROR] = true;
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
    return {
      code: this.spec.jsonRpc,
      message: this.message,
      ...(this.data === undefined ? {} : { data: this.data }),
    };
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
  return (
    e instanceof MoorError ||
    (typeof e === 'object' && e !== null && (e as { [MOOR_ERROR]?: unknown })[MOOR_ERROR] === true)
  );
}

/** The CLI exit code for anything a command ends with. */
export function exitCodeOf(error: unknown): number {
  return isMoorError(error) && isMoorErrorCode(error.code) ? ERRORS[error.code].exit : EXIT_FAILURE;
}
