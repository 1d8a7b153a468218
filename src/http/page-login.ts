/**
 * The status page's login link (as Jupyter's): a browser cannot send
 * `Authorization: Bearer`, so `GET /status?token=<token>` with the right
 * token sets a cookie and redirects (303) to the same URL without the token,
 * which then stays out of the address bar and history. The cookie is
 * `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
 * makes the browser send it) and `Path=/status`; intake accepts it for GETs
 * of that page only, never for `/mcp`, so ambient credentials never call a
 * tool. Its value is derived from the token (an HMAC), so a leaked cookie is
 * not the bearer token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf } from './wire.js';

export const PAGE_COOKIE_NAME = 'moor_status';
/** The one page the cookie opens. */
export const PAGE_COOKIE_PATH = '/status';
const TOKEN_PARAM = 'token';

export type LoginVerdict =
  /** The request carries a valid page cookie: serve the page. */
  | 'cookie'
  /** It carried the right `?token=`: answered with the cookie and a redirect. */
  | 'redirected'
  /** It carried a wrong `?token=`: the caller answers 401. */
  | 'wrong-token'
  /** Neither: the bearer header decides. */
  | 'none';

export class PageLogin {
  readonly #cookieValue: Buffer;
  readonly #matches: (presented: string) => boolean;

  /** `matches` compares a presented token with the endpoint's, in constant time. */
  constructor(token: string, matches: (presented: string) => boolean) {
    this.#cookieValue = Buffer.from(
      createHmac('sha256', token).update('moor status page cookie').digest('base64url'),
    );
    this.#matches = matches;
  }

  /** For a GET/HEAD of `route` (already known to be the cookie's page). */
  check(req: IncomingMessage, res: ServerResponse, route: string, search: string): LoginVerdict {
    const query = new URLSearchParams(search);
    const presented = query.get(TOKEN_PARAM);
    if (presented !== null) {
      if (!this.#matches(presented)) return 'wrong-token';
      query.delete(TOKEN_PARAM);
      const rest = query.toString();
      res.writeHead(303, {
        location: rest === '' ? route : `${route}?${rest}`,
        'set-cookie': `${PAGE_COOKIE_NAME}=${this.#cookieValue.toString()}; HttpOnly; SameSite=Strict; Path=${PAGE_COOKIE_PATH}`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      res.end();
      return 'redirected';
    }
    return this.#hasCookie(req) ? 'cookie' : 'none';
  }

  #hasCookie(req: IncomingMessage): boolean {
    const header = headerOf(req.headers.cookie);
    if (header === undefined) return false;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== PAGE_COOKIE_NAME) continue;
      const value = Buffer.from(part.slice(eq + 1).trim());
      if (value.length === this.#cookieValue.length && timingSafeEqual(value, this.#cookieValue)) return true;
    }
    return false;
  }
}
