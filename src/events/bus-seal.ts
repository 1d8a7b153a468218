/**
 * Signing bus payloads. Anyone who may CONNECT to the database can LISTEN
 * and NOTIFY on moor's channel, so a payload proves it was written by a
 * daemon of this cluster: `<mac>.<json>`, the MAC an HMAC-SHA256 of the JSON
 * under the cluster's bus key. The MAC is checked before the JSON is parsed;
 * a payload without a valid one is not looked at further.
 *
 * Sessions are named on the bus by a tag (a keyed hash of the session key):
 * a session key is a credential over HTTP, and a listener must not learn it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 32;
/** The MAC's base64url length (32 bytes, unpadded). */
const MAC_CHARS = 43;

function macOf(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

/** The payload that carries `body`, signed with `key`. */
export function signPayload(key: Buffer, body: string): string {
  return `${macOf(key, body).toString('base64url')}.${body}`;
}

/** The signed body, or undefined when `payload` carries no valid MAC under `key`. */
export function verifiedBody(key: Buffer, payload: string): string | undefined {
  if (payload.length <= MAC_CHARS || payload[MAC_CHARS] !== '.') return undefined;
  const given = Buffer.from(payload.slice(0, MAC_CHARS), 'base64url');
  if (given.length !== MAC_BYTES) return undefined;
  const body = payload.slice(MAC_CHARS + 1);
  return timingSafeEqual(given, macOf(key, body)) ? body : undefined;
}

/** A session's name on the bus: the same on every daemon holding `key`, and no use to anyone else. */
export function sessionTag(key: Buffer, sessionKey: string): string {
  return createHmac('sha256', key).update(sessionKey).digest('base64url');
}
