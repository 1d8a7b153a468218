/**
 * Connecting to the daemon's socket and exchanging the hello: node:net and
 * the state dir's checks only, so a one-shot command that asks a running
 * daemon loads nothing that starts one (daemon-link.ts).
 */
import { createRequire } from 'node:module';
import type net from 'node:net';
import type { ControlHello, HelloReply, Incarnation, SessionHello } from './hello.js';
import { checkDaemonSocket } from './state-dir.js';

export interface DaemonLink {
  readonly socket: net.Socket;
  readonly incarnation: Incarnation;
  readonly reply: HelloReply & { ok: true };
  /** Bytes that arrived right after the hello reply (the start of the MCP stream). */
  readonly rest: Buffer;
}

export type LinkOutcome =
  | { readonly kind: 'connected'; readonly link: DaemonLink }
  /** No daemon answers (no socket, stale socket, or one shutting down). */
  | { readonly kind: 'absent'; readonly reason: string }
  /** The daemon answered and refused this hello: retrying will not help. */
  | { readonly kind: 'refused'; readonly code: string; readonly message: string };

/**
 * node:net on the first connect: a CommonJS bundle (the one-shot CLI's)
 * requires every builtin it imports when it starts, and a command on a machine
 * with no daemon never connects.
 */
let netModule: typeof net | undefined;
function loadNet(): typeof net {
  // Any absolute base resolves a builtin; import.meta.url would cost a bundle a file URL made at run time.
  netModule ??= createRequire('/')('node:net') as typeof net;
  return netModule;
}

const RETRYABLE_REFUSALS = new Set(['SHUTTING_DOWN']);

/** Connects and sends `hello`; resolves with the daemon's answer. Never rejects. */
export function connectDaemon(
  socketPath: string,
  hello: SessionHello | ControlHello,
  timeoutMs = 5000,
): Promise<LinkOutcome> {
  // Nothing is sent to a socket someone else could have planted: not the hello, not the session key.
  const check = checkDaemonSocket(socketPath);
  if (check.kind === 'untrusted')
    return Promise.resolve({ kind: 'refused', code: 'STATE_DIR_UNUSABLE', message: check.message });
  return new Promise((resolve) => {
    const socket = loadNet().createConnection(socketPath);
    let buffered: Buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: LinkOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (outcome.kind !== 'connected') socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ kind: 'absent', reason: 'the daemon did not answer the hello in time' }),
      timeoutMs,
    );
    const onError = (error: NodeJS.ErrnoException) =>
      finish({ kind: 'absent', reason: error.code ?? error.message });
    const onClose = () => finish({ kind: 'absent', reason: 'the daemon closed the connection' });
    const onData = (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(10);
      if (newline < 0) return;
      socket.pause();
      let reply: HelloReply;
      try {
        reply = JSON.parse(buffered.subarray(0, newline).toString('utf8')) as HelloReply;
      } catch {
        finish({
          kind: 'refused',
          code: 'HELLO_INVALID',
          message: 'the daemon answered the hello with something that is not JSON',
        });
        return;
      }
      if (!reply.ok) {
        if (RETRYABLE_REFUSALS.has(reply.error.code)) finish({ kind: 'absent', reason: reply.error.message });
        else finish({ kind: 'refused', code: reply.error.code, message: reply.error.message });
        return;
      }
      finish({
        kind: 'connected',
        link: {
          socket,
          incarnation: reply.incarnation,
          reply,
          rest: Buffer.from(buffered.subarray(newline + 1)),
        },
      });
    };
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.on('data', onData);
    socket.on('connect', () => socket.write(`${JSON.stringify(hello)}\n`));
  });
}
