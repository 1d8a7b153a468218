/**
 * The client a request names, for operators telling sessions apart: the
 * 2025 `initialize` request's `clientInfo`, or the client info a 2026-07-28
 * request carries in its `_meta`. Shown, never parsed or trusted: a name or
 * version longer than operators need is cut.
 */

/** A client's name and version as its handshake gave them. */
export interface ClientNamed {
  readonly name: string;
  readonly version: string;
}

export const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
const MAX_CLIENT_FIELD = 200;

/** `envelope` is the request's `_meta` when the caller already took it out of `params`. */
export function clientNamedBy(method: unknown, params: unknown, envelope?: unknown): ClientNamed | undefined {
  const fields = isObject(params) ? params : {};
  const meta = envelope ?? fields._meta;
  const info =
    method === 'initialize' ? fields.clientInfo : isObject(meta) ? meta[CLIENT_INFO_META] : undefined;
  if (!isObject(info) || typeof info.name !== 'string' || info.name.length === 0) return undefined;
  return {
    name: info.name.slice(0, MAX_CLIENT_FIELD),
    version: typeof info.version === 'string' ? info.version.slice(0, MAX_CLIENT_FIELD) : '',
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
