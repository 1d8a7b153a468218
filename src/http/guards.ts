/**
 * The guards in front of the MCP handler: DNS-rebinding protection (Host and
 * Origin), the bearer token for non-loopback binds, and the bounded body read.
 * Host and Origin use the SDK's own validators, so a request the SDK's guard
 * would refuse is refused here with the same message.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Hostnames as they appear in a Host header: IPv6 in brackets. */
function asHostname(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  return bare.includes(':') ? `[${bare}]` : bare;
}

/**
 * The Host/Origin allowlist: loopback names always; for a non-loopback bind
 * (which requires a token) also the bound address, or every local interface
 * address when bound to a wildcard.
 */
export function allowedHostnames(bindHost: string): string[] {
  const names = new Set<string>(LOOPBACK_NAMES);
  if (isWildcardHost(bindHost)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const entry of list ?? []) names.add(asHostname(entry.address));
    }
  } else names.add(asHostname(bindHost));
  return [...names];
}

export type GuardResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

const OK: GuardResult = { ok: true };
const MEMO_LIMIT = 64;

/** Host and Origin checks, memoised per distinct header value (clients send the same one every time). */
export class OriginGuard {
  readonly #hosts: string[];
  readonly #hostMemo = new Map<string, GuardResult>();
  readonly #originMemo = new Map<string, GuardResult>();

  constructor(hostnames: readonly string[]) {
    this.#hosts = [...hostnames];
  }

  check(req: IncomingMessage): GuardResult {
    const host = req.headers.host ?? '';
    let hostResult = this.#hostMemo.get(host);
    if (hostResult === undefined) {
      const verdict = validateHostHeader(host, this.#hosts);
      hostResult = verdict.ok ? OK : { ok: false, message: verdict.message };
      remember(this.#hostMemo, host, hostResult);
    }
    if (!hostResult.ok) return hostResult;
    const origin = req.headers.origin;
    if (origin === undefined || origin === '') return OK;
    let originResult = this.#originMemo.get(origin);
    if (originResult === undefined) {
      const verdict = validateOriginHeader(origin, this.#hosts);
      originResult = verdict.ok ? OK : { ok: false, message: verdict.message };
      remember(this.#originMemo, origin, originResult);
    }
    return originResult;
  }
}

function remember(memo: Map<string, GuardResult>, key: string, value: GuardResult): void {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
}

/** Bearer-token check, constant time: both sides are hashed to equal-length digests first. */
export class TokenGuard {
  readonly #digest: Buffer;

  constructor(token: string) {
    this.#digest = createHash('sha256').update(token, 'utf8').digest();
  }

  /** True when `presented` is the token (compared in constant time). */
  matches(presented: string): boolean {
    return timingSafeEqual(createHash('sha256').update(presented, 'utf8').digest(), this.#digest);
  }

  /** Undefined when the request carries the token, else why not (the 401 says what to do). */
  refusal(req: IncomingMessage): 'missing' | 'wrong' | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return 'missing';
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    return this.matches(match?.[1] ?? '') && match ? undefined : 'wrong';
  }
}

export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'aborted' };

/** Reads a request body, stopping as soon as more than `limit` bytes arrived. */
export function readBody(req: IncomingMessage, limit: number, onDone: (result: BodyResult) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    onDone({ kind: 'too-large' });
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (result: BodyResult) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onError);
    onDone(result);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) {
      settle({ kind: 'too-large' });
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () =>
    settle({ kind: 'ok', body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) });
  const onError = () => settle({ kind: 'aborted' });
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('aborted', onError);
}
