/**
 * How many HTTP connections the daemon holds, and for how long a client may
 * take to send a request. A client that opens sockets and sends its headers
 * or body a byte at a time must not exhaust the process's file descriptors:
 * the Unix socket that proxies and `moor daemon …` use shares them. So HTTP
 * connections are capped well below the soft RLIMIT_NOFILE (Node has no API
 * for it; Linux shows it in /proc/self/limits), and slow requests time out.
 *
 * Node built-ins only: the daemon's flag defaults are read from here.
 */
import { readFileSync } from 'node:fs';

/** `--max-connections`: at most this many HTTP connections at once (lowered to fit the fd limit). */
export const DEFAULT_MAX_CONNECTIONS = 512;
/** `--headers-timeout-ms`: a client has this long to send a request's headers. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** `--request-timeout-ms`: and this long to send the whole request, body included. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** An idle keep-alive connection is closed after this long (Node's default). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * The share of the fd limit HTTP connections may take: the rest stays for the
 * Unix socket's connections, the store, the log, corpus reads and watchers.
 */
const HTTP_FD_SHARE = 0.5;

/** The soft limit on open files, from /proc/self/limits; undefined where it cannot be read. */
export function softFdLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(text);
  if (!match || match[1] === 'unlimited') return undefined;
  return Number(match[1]);
}

/** The connection cap to apply: the configured one, lowered to leave fd headroom. */
export function effectiveMaxConnections(configured: number, fdLimit = softFdLimit()): number {
  if (fdLimit === undefined) return configured;
  return Math.max(1, Math.min(configured, Math.floor(fdLimit * HTTP_FD_SHARE)));
}
