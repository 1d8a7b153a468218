/**
 * A registry error as the SDK's ProtocolError. A request handler answers a
 * JSON-RPC error by throwing; the SDK takes the thrown error's numeric `code`
 * and `data`, so a MoorError (whose `code` is its registry name) would be
 * answered -32603. Converting here keeps the registry the one place a code
 * is decided, and the wire answer exactly what the code declares.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { MoorError, type MoorErrorCode } from '../errors.js';

export function toProtocolError(error: MoorError): ProtocolError {
  const { code, message, data } = error.toJsonRpc();
  return new ProtocolError(code, message, data);
}

/** The ProtocolError for a registry code: what a handler throws to answer that code. */
export function protocolError(
  code: MoorErrorCode,
  message: string,
  data?: Readonly<Record<string, unknown>>,
): ProtocolError {
  return toProtocolError(new MoorError(code, message, data));
}
