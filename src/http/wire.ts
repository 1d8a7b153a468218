/**
 * Small wire helpers shared by the HTTP endpoint's guards, its lean path and
 * its shutdown: JSON-RPC error bodies, header decoding, request-shape checks.
 * Everything here mirrors what the SDK's HTTP entry does, byte for byte where
 * the SDK answers the same request (see lean-path.ts).
 */
import type { ServerResponse } from 'node:http';

export type JsonRpcId = string | number;

/** The endpoint's log, as the daemon hands it over (pino underneath; http never imports it). */
export type HttpLog = (
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  fields?: Record<string, unknown>,
) => void;

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** The headers the SDK's legacy (2025) transport puts on an SSE response. */
export const SSE_HEADERS = {
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  'x-accel-buffering': 'no',
} as const;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The id to echo on an error built before dispatch: the body's id when the
 * body is a single request with a string or number id, else null (the SDK's
 * `echoableRequestId`).
 */
export function echoableId(body: unknown): JsonRpcId | null {
  if (!isPlainObject(body) || typeof body.method !== 'string') return null;
  const id = body.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** An error body in the order the SDK's entry builds its own (`jsonrpc, error, id`). */
export function entryErrorBody(
  code: number,
  message: string,
  id: JsonRpcId | null = null,
  data?: unknown,
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    error: { code, message, ...(data !== undefined ? { data } : {}) },
    id,
  });
}

/** An error body in the order the SDK's protocol layer sends a dispatch error (`jsonrpc, id, error`). */
export function dispatchErrorBody(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data !== undefined ? { data } : {}) },
  });
}

export function sseFrame(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: string,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  if (res.headersSent || res.writableEnded) return;
  res.writeHead(status, extraHeaders ? { ...JSON_HEADERS, ...extraHeaders } : JSON_HEADERS);
  res.end(body);
}

/** First value of a header as Node hands it over (duplicates of unknown headers arrive joined). */
export function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** RFC 9110 optional whitespace (SP / HTAB) stripped from both ends, as the SDK does. */
export function stripOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === 32 || value.charCodeAt(start) === 9)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 32 || value.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a header value that may use the 2026-07-28 `=?base64?…?=` form
 * (for values that are not plain ASCII). Returns undefined when the sentinel
 * is present but the payload is not canonical Base64 of valid UTF-8, which
 * the spec requires a server to reject. Same rules as the SDK's decoder.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const b64 = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!BASE64_CANONICAL.test(b64)) return undefined;
  try {
    return UTF8.decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

/** True when every own key of `object` is one of `allowed`. */
export function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}
