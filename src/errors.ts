/**
 * moor's typed errors. Every error moor raises on purpose carries a stable
 * string code (for logs, the CLI's exit path and tests) and, where it crosses
 * the wire, the JSON-RPC code it maps to. Codes never change meaning once shipped.
 */

export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
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

export type MoorErrorCode =
  | 'CORPUS_NOT_FOUND'
  | 'WORKSPACE_INVALID'
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'DECISION_NOT_FOUND'
  | 'DECISION_AMBIGUOUS'
  | 'INVALID_ARGUMENTS'
  | 'INVALID_CURSOR'
  | 'UNKNOWN_TOOL'
  | 'RESOURCE_NOT_FOUND'
  | 'USAGE';

export class MoorError extends Error {
  override readonly name = 'MoorError';
  constructor(
    readonly code: MoorErrorCode,
    message: string,
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/**
 * An expected failure of a tool call: it becomes a tool result with
 * `isError: true` and this message, never a JSON-RPC error, so the agent
 * reads what to do next.
 */
export class ToolError extends MoorError {}

export function isMoorError(e: unknown): e is MoorError {
  return e instanceof MoorError;
}
