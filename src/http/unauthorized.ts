/**
 * What a request without the right bearer token is told: a 401 whose body
 * and `WWW-Authenticate` challenge name the header to send and the file the
 * token lives in. A browser (Accept: text/html) gets a small page saying the
 * same, with the login link's shape; an API client gets JSON-RPC. Nothing
 * here ever carries the token itself: the person who can read the file is
 * the one who may use it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERRORS } from '../errors.js';
import { entryErrorBody, headerOf, sendJson } from './wire.js';

export type UnauthorizedReason = 'missing' | 'wrong';

/** Answers 401 for one endpoint; the texts are built once. */
export class Unauthorized {
  readonly #json: Record<UnauthorizedReason, string>;
  readonly #html: Record<UnauthorizedReason, string>;
  readonly #challenge: Record<UnauthorizedReason, string>;

  /** `tokenFile`: where the token lives (the state dir's http.token or --token-file), when known. */
  constructor(tokenFile: string | undefined) {
    const where = tokenFile === undefined ? "the daemon's --token-file" : `the file ${tokenFile}`;
    const what: Record<UnauthorizedReason, string> = {
      missing: 'this endpoint needs a bearer token',
      wrong: 'the bearer token is not valid',
    };
    const advice = `send the header "Authorization: Bearer <token>" with the token in ${where}`;
    this.#json = {
      missing: entryErrorBody(ERRORS.TOKEN_INVALID.jsonRpc, `Unauthorized: ${what.missing}; ${advice}.`),
      wrong: entryErrorBody(ERRORS.TOKEN_INVALID.jsonRpc, `Unauthorized: ${what.wrong}; ${advice}.`),
    };
    this.#html = { missing: page(what.missing, where), wrong: page(what.wrong, where) };
    this.#challenge = {
      missing: challenge(`${what.missing}: ${advice}`),
      wrong: challenge(`${what.wrong}: ${advice}`),
    };
  }

  send(req: IncomingMessage, res: ServerResponse, reason: UnauthorizedReason): void {
    const challengeHeader = { 'www-authenticate': this.#challenge[reason] };
    if (!wantsHtml(req)) {
      sendJson(res, ERRORS.TOKEN_INVALID.http, this.#json[reason], challengeHeader);
      return;
    }
    if (res.headersSent || res.writableEnded) return;
    res.writeHead(ERRORS.TOKEN_INVALID.http, {
      ...challengeHeader,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : this.#html[reason]);
  }
}

/** A browser navigating asks for HTML first; API clients ask for JSON or SSE. */
function wantsHtml(req: IncomingMessage): boolean {
  return /\btext\/html\b/i.test(headerOf(req.headers.accept) ?? '');
}

/**
 * RFC 6750's challenge. The description is a quoted-string, so quotes and
 * backslashes are escaped and anything outside printable ASCII (a header
 * cannot carry it) becomes "?".
 */
function challenge(description: string): string {
  const quoted = description.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  return `Bearer realm="moor", error="invalid_token", error_description="${quoted}"`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(what: string, where: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>moor: unauthorized</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42em;margin:3em auto;padding:0 1em}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>401: ${esc(what)}</h1>
<p>The token is in ${esc(where)} (readable by its owner only).</p>
<p>In a browser, open the status page's login link: <code>/status?token=&lt;token&gt;</code>
(<code>moor daemon status</code> prints it). It sets a cookie for this page only.</p>
<p>An MCP client sends the header <code>Authorization: Bearer &lt;token&gt;</code>.</p>
</body></html>
`;
}
