/**
 * The control hellos a socket connection may send instead of a session
 * hello: status, stop, tasks (`moor tasks …`), sessions (`moor sessions …`),
 * metrics (`moor daemon metrics`), one-shot (a `moor decisions …` command's one tool call) and
 * handoff (a newer moor taking over). Each is answered with
 * one reply line and the connection ends.
 */
import type net from 'node:net';
import type { Logger } from 'pino';
import { MoorError } from '../errors.js';
import {
  type ControlHello,
  type DaemonStatus,
  HELLO_VERSION,
  type HelloReply,
  helloError,
  type Incarnation,
  type SessionsControlReply,
  type SessionsControlRequest,
  type TasksControlReply,
  type TasksControlRequest,
} from '../protocol/hello.js';
import type { OneShotReply, OneShotRequest } from '../protocol/one-shot-hello.js';
import { compareVersions } from '../protocol/version.js';
import { verifyBinary } from './handoff-binary.js';

/** What the control hellos need from the daemon (part of the socket server's options). */
export interface ControlHelloOptions {
  readonly incarnation: Incarnation;
  readonly log: Logger;
  /** The Prometheus text for a control hello 'metrics' (`moor daemon metrics`); absent, metrics are off. */
  metrics?(): Promise<string>;
  /** A control hello asked the daemon to stop. */
  onStopRequested(): void;
  /**
   * A moor asked this daemon to hand over (its binary already checked newer,
   * or not older for a takeover). `successor` is the binary to start; absent
   * for a takeover, whose asker becomes the daemon itself.
   */
  onHandoffRequested?(version: string, successor: string | undefined): void;
  /** Answers a control hello 'tasks' (`moor tasks …`). */
  tasks?(request: TasksControlRequest): TasksControlReply | Promise<TasksControlReply>;
  /** Answers a control hello 'sessions' (`moor sessions …`). */
  sessions?(request: SessionsControlRequest): Promise<SessionsControlReply>;
  /** Answers a control hello 'one-shot' (a `moor decisions …` command run against this daemon). */
  oneShot?(request: OneShotRequest): Promise<OneShotReply>;
}

/** Answers a control hello; `server` gives the status a 'status' hello asks for. */
export async function answerControl(
  socket: net.Socket,
  hello: ControlHello,
  options: ControlHelloOptions,
  server: { status(): DaemonStatus },
): Promise<void> {
  if (hello.control === 'handoff') {
    answerHandoff(socket, hello, options);
    return;
  }
  if (hello.control === 'metrics') {
    void answerMetrics(socket, options);
    return;
  }
  const tasks =
    hello.control === 'tasks' && hello.tasks !== undefined
      ? ((await options.tasks?.(hello.tasks)) ?? {
          error: helloError(new MoorError('TASKS_UNAVAILABLE', 'this daemon serves no tasks')),
        })
      : undefined;
  const sessions =
    hello.control === 'sessions' && hello.sessions !== undefined
      ? ((await options.sessions?.(hello.sessions)) ?? {
          error: helloError(new MoorError('SESSION_NOT_FOUND', 'this daemon keeps no sessions')),
        })
      : undefined;
  const oneShot =
    hello.control === 'one-shot' && hello.oneShot !== undefined
      ? ((await options.oneShot?.(hello.oneShot)) ?? {
          error: helloError(new MoorError('UNKNOWN_TOOL', 'this daemon answers no one-shot commands')),
        })
      : undefined;
  const reply: HelloReply = {
    moor: HELLO_VERSION,
    ok: true,
    incarnation: options.incarnation,
    ...(hello.control === 'status' ? { status: server.status() } : {}),
    ...(tasks !== undefined ? { tasks } : {}),
    ...(sessions !== undefined ? { sessions } : {}),
    ...(oneShot !== undefined ? { oneShot } : {}),
  };
  socket.end(`${JSON.stringify(reply)}\n`);
  if (hello.control === 'stop') {
    options.log.info('stop requested over the socket');
    options.onStopRequested();
  }
}

/** Refuses a hello (session or control) with `refusal`'s code and ends the connection. */
export function replyAndClose(socket: net.Socket, refusal: MoorError, log: Logger): void {
  const reply: HelloReply = { moor: HELLO_VERSION, ok: false, error: helloError(refusal) };
  log.info({ code: refusal.code }, `refused a socket hello: ${refusal.message}`);
  socket.end(`${JSON.stringify(reply)}\n`);
}

/**
 * Only a newer moor may take over (a takeover: one not older), and only one
 * that proves it: the version is read from the binary it names, never taken
 * from the hello. An older or equal one is told so and keeps using this daemon.
 */
function answerHandoff(socket: net.Socket, hello: ControlHello, options: ControlHelloOptions): void {
  const checked = checkHandoff(hello, options);
  if (typeof checked === 'string' || !options.onHandoffRequested) {
    const message = typeof checked === 'string' ? checked : 'this daemon does not hand over';
    replyAndClose(socket, new MoorError('HANDOFF_REFUSED', message), options.log);
    return;
  }
  const reply: HelloReply = { moor: HELLO_VERSION, ok: true, incarnation: options.incarnation };
  socket.end(`${JSON.stringify(reply)}\n`);
  options.onHandoffRequested(checked.version, hello.takeover === true ? undefined : checked.binary);
}

/** The verified asker, or why it may not take over. */
function checkHandoff(
  hello: ControlHello,
  options: ControlHelloOptions,
): { readonly version: string; readonly binary: string } | string {
  const own = options.incarnation.version;
  if (hello.binary === undefined) return `moor ${hello.version ?? '?'} names no binary to verify its version`;
  const verified = verifyBinary(hello.binary);
  if (!verified.ok) return `cannot verify the moor asking to take over: ${verified.problem}`;
  const self = process.argv[1] === undefined ? undefined : verifyBinary(process.argv[1]);
  if (self?.ok && self.name !== verified.name)
    return `${verified.binary} is ${verified.name}, not ${self.name}`;
  const order = compareVersions(verified.version, own);
  if (order === undefined || order < 0 || (order === 0 && hello.takeover !== true))
    return `moor ${verified.version} is not newer than this daemon (${own})`;
  return verified;
}

async function answerMetrics(socket: net.Socket, options: ControlHelloOptions): Promise<void> {
  const { metrics } = options;
  let answer: NonNullable<Extract<HelloReply, { ok: true }>['metrics']>;
  if (metrics === undefined) {
    answer = {
      error: helloError(
        new MoorError('METRICS_OFF', 'this daemon runs without metrics (started with MOOR_METRICS=0)'),
      ),
    };
  } else {
    try {
      answer = { text: await metrics() };
    } catch (error) {
      options.log.error({ err: error }, 'collecting metrics failed');
      answer = {
        error: helloError(new MoorError('INTERNAL', 'collecting metrics failed; the log has the details')),
      };
    }
  }
  const reply: HelloReply = {
    moor: HELLO_VERSION,
    ok: true,
    incarnation: options.incarnation,
    metrics: answer,
  };
  socket.end(`${JSON.stringify(reply)}\n`);
}
