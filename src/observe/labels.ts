/**
 * The bounded vocabularies of moor's metric labels and span attributes. A
 * label value never comes from the wire unchecked: methods outside the
 * allow-list are "other", tool names outside the catalog are "unknown", so a
 * client cannot grow the number of series (and a scrape's size) at will.
 */

export type Transport = 'socket' | 'http';
export type Era = 'modern' | 'legacy';
export type Outcome = 'ok' | 'error' | 'refused' | 'cancelled';

export const TRANSPORTS: readonly Transport[] = ['socket', 'http'];
export const ERAS: readonly Era[] = ['modern', 'legacy'];
export const OUTCOMES: readonly Outcome[] = ['ok', 'error', 'refused', 'cancelled'];

/** The MCP methods a label may name; anything else is counted as "other". */
export const METHODS: readonly string[] = [
  'initialize',
  'notifications/initialized',
  'notifications/cancelled',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'subscriptions/listen',
  'skills/list',
  'skills/get',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'tasks/list',
  'tasks/result',
];
export const OTHER_METHOD = 'other';
/**
 * The error.type of a tools/call that answered with an `isError` result (the
 * OpenTelemetry MCP conventions' value): JSON-RPC succeeded, the call failed,
 * and the request counts and traces as an error, as the tool-call counter does.
 */
export const TOOL_ERROR_TYPE = 'tool_error';

/** A JSON-RPC response carrying a tool result with `isError: true`. */
export function isToolErrorResponse(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const result = (message as { result?: unknown }).result;
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}
export const UNKNOWN_TOOL = 'unknown';

const METHOD_INDEX: ReadonlyMap<string, number> = new Map(METHODS.map((m, i) => [m, i]));
/** Index of "other" in method-indexed tables (one past the allow-list). */
export const OTHER_METHOD_INDEX = METHODS.length;
export const LISTEN_METHOD_INDEX = METHOD_INDEX.get('subscriptions/listen') as number;
export const TOOLS_CALL_METHOD_INDEX = METHOD_INDEX.get('tools/call') as number;

/** The method's position in METHODS, else OTHER_METHOD_INDEX. */
export function methodIndex(method: unknown): number {
  return typeof method === 'string' ? (METHOD_INDEX.get(method) ?? OTHER_METHOD_INDEX) : OTHER_METHOD_INDEX;
}

export function methodLabel(index: number): string {
  return METHODS[index] ?? OTHER_METHOD;
}

/** The 2026-07-28 envelope key; its presence in `_meta` makes a request modern. */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** `params._meta` of a message, when it is an object. */
export function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** Modern when `_meta` carries the 2026-07-28 protocol version key, else legacy. */
export function eraOf(message: unknown): Era {
  const meta = metaOf(message);
  return meta !== undefined && PROTOCOL_VERSION_META_KEY in meta ? 'modern' : 'legacy';
}

/** The protocol version a modern request names in `_meta`, if any. */
export function protocolVersionOf(message: unknown): string | undefined {
  const version = metaOf(message)?.[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}

/** `params.name` of a tools/call, when it is a string. */
export function toolNameOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const name = (params as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}
