/**
 * The daemon's socket side: listens on the Unix socket (0600, no window where
 * it is world-connectable), reads each connection's hello, hands control
 * hellos (status, stop, tasks, metrics, handoff) to control-hellos.ts and
 * serves a session hello with `serveStdio` over a gated transport on the
 * socket. Owns graceful shutdown of its connections.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { MoorError } from '../errors.js';
import type { AdmissionGate } from '../host/admission.js';
import type { RequestObserver } from '../observe/observer.js';
import {
  type DaemonStatus,
  HELLO_VERSION,
  type HelloReply,
  parseHello,
  type SessionHello,
} from '../protocol/hello.js';
import { checkDaemonSocket } from '../protocol/state-dir.js';
import { answerControl, type ControlHelloOptions, replyAndClose } from './control-hellos.js';
import { GatedTransport } from './gated-transport.js';
import { LineTransport } from './line-transport.js';

/** A hello longer than this is not a hello. */
const MAX_HELLO_BYTES = 64 * 1024;
/** A connection that says nothing for this long is dropped. */
const HELLO_TIMEOUT_MS = 10_000;

export interface SessionOpening {
  readonly factory: McpServerFactory;
  /**
   * Wraps the connection's transport before the SDK serves it (listen
   * streams are served there); `closeListens` ends them gracefully at shutdown.
   */
  wrapTransport?(transport: Transport): { readonly transport: Transport; closeListens(): void };
  /** Called once when the connection ends. */
  close(): void;
}

export interface SocketServerOptions extends ControlHelloOptions {
  readonly socketPath: string;
  readonly gate: AdmissionGate;
  /** The factory and binding for one session connection; throw a MoorError to refuse it with that code. */
  openSession(hello: SessionHello): SessionOpening | Promise<SessionOpening>;
  /** Status fields the socket layer does not own (sessions, rooms, tasks: the composition's). */
  describe(): DescribedStatus;
  /** Counts and traces every request of every connection (metrics, tracing). */
  readonly observer?: RequestObserver;
  /** Called after every answered request (idle bookkeeping). */
  onRequestFinished?(): void;
}

/** What the composition adds to the socket's own status fields. */
export type DescribedStatus = Pick<DaemonStatus, 'httpUrl' | 'workspaces'> &
  Partial<Pick<DaemonStatus, 'version' | 'httpTokenFile' | 'sessions' | 'rooms' | 'tasks' | 'observability'>>;

interface Connection {
  readonly socket: net.Socket;
  readonly workspace: string | undefined;
  readonly transport: GatedTransport;
  readonly closeListens: () => void;
  readonly handle: { close(): Promise<void> };
  readonly sessionKey: string;
}

export class SocketServer {
  readonly #options: SocketServerOptions;
  readonly #server: net.Server;
  readonly #connections = new Set<Connection>();
  readonly #sockets = new Set<net.Socket>();
  readonly #started = Date.now();
  #nextConnection = 1;

  constructor(options: SocketServerOptions) {
    this.#options = options;
    this.#server = net.createServer({ allowHalfOpen: false }, (socket) => this.#accept(socket));
  }

  get connectedClients(): number {
    return this.#connections.size;
  }

  /**
   * Listens; what a dead daemon of ours left at the socket path is removed
   * first (the caller holds the lock; unlink never follows a symlink). Only
   * something another user owns is left alone and refused: it was planted.
   */
  async listen(): Promise<void> {
    const { socketPath } = this.#options;
    const existing = checkDaemonSocket(socketPath);
    if (existing.kind === 'untrusted' && fs.lstatSync(socketPath).uid !== process.getuid?.())
      throw new MoorError('STATE_DIR_UNUSABLE', existing.message);
    try {
      fs.unlinkSync(socketPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // The umask makes the socket 0600 from the moment it exists; chmod is belt and braces.
    const previous = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        this.#server.once('error', reject);
        this.#server.listen(socketPath, () => {
          this.#server.off('error', reject);
          resolve();
        });
      });
    } finally {
      process.umask(previous);
    }
    fs.chmodSync(socketPath, 0o600);
  }

  status(): DaemonStatus {
    const described = this.#options.describe();
    return {
      ...(described.version !== undefined ? { version: described.version } : {}),
      incarnation: this.#options.incarnation,
      socket: this.#options.socketPath,
      httpUrl: described.httpUrl,
      ...(described.httpTokenFile !== undefined ? { httpTokenFile: described.httpTokenFile } : {}),
      uptimeMs: Date.now() - this.#started,
      connectedClients: this.#connections.size,
      inFlight: this.#options.gate.inFlight,
      maxInFlight: this.#options.gate.limit,
      workspaces: described.workspaces,
      ...(described.sessions !== undefined ? { sessions: described.sessions } : {}),
      ...(described.rooms !== undefined ? { rooms: described.rooms } : {}),
      ...(described.tasks !== undefined ? { tasks: described.tasks } : {}),
      ...(described.observability !== undefined ? { observability: described.observability } : {}),
      memory: (({ rss, heapTotal, heapUsed, external }) => ({ rss, heapTotal, heapUsed, external }))(
        process.memoryUsage(),
      ),
    };
  }

  #accept(socket: net.Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', (error) => this.#options.log.debug({ err: error }, 'socket error'));
    let buffered: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), HELLO_TIMEOUT_MS);
    timer.unref();
    const onData = (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(10);
      if (newline < 0) {
        if (buffered.length > MAX_HELLO_BYTES) {
          clearTimeout(timer);
          socket.off('data', onData);
          this.#replyAndClose(socket, new MoorError('HELLO_INVALID', 'the hello line is too long'));
        }
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      const line = buffered.subarray(0, newline).toString('utf8');
      const rest = buffered.subarray(newline + 1);
      this.#onHello(socket, line, rest);
    };
    socket.on('data', onData);
  }

  #replyAndClose(socket: net.Socket, refusal: MoorError): void {
    replyAndClose(socket, refusal, this.#options.log);
  }

  #onHello(socket: net.Socket, line: string, rest: Buffer): void {
    const hello = parseHello(line);
    if ('error' in hello) {
      this.#replyAndClose(socket, new MoorError('HELLO_INVALID', hello.error));
      return;
    }
    if ('control' in hello) {
      answerControl(socket, hello, this.#options, this).catch((error: unknown) => {
        this.#options.log.error({ err: error }, `the ${hello.control} control hello failed`);
        socket.destroy();
      });
      return;
    }
    void this.#open(socket, hello, rest);
  }

  async #open(socket: net.Socket, hello: SessionHello, rest: Buffer): Promise<void> {
    let opening: SessionOpening;
    try {
      opening = await this.#options.openSession(hello);
    } catch (error) {
      if (error instanceof MoorError) {
        this.#replyAndClose(socket, error);
        return;
      }
      this.#options.log.error({ err: error }, 'could not open a session');
      this.#replyAndClose(
        socket,
        new MoorError('INTERNAL', 'the daemon could not open this session; its log has the details'),
      );
      return;
    }
    // The client may have gone while the session opened (its store read, its room warmed).
    if (socket.destroyed) {
      opening.close();
      return;
    }
    if (this.#options.gate.closed) {
      opening.close();
      this.#replyAndClose(socket, new MoorError('SHUTTING_DOWN', 'moor daemon is shutting down'));
      return;
    }
    const reply: HelloReply = { moor: HELLO_VERSION, ok: true, incarnation: this.#options.incarnation };
    socket.write(`${JSON.stringify(reply)}\n`);
    this.#serve(socket, hello, opening, rest);
  }

  #serve(socket: net.Socket, hello: SessionHello, opening: SessionOpening, rest: Buffer): void {
    const id = this.#nextConnection++;
    const log = this.#options.log.child({ conn: id });
    // Bytes that arrived with the hello belong to the MCP stream: put them back first.
    if (rest.length > 0) socket.unshift(rest);
    const transport = new GatedTransport(
      // LineTransport, not the SDK's StdioServerTransport: a malformed line gets -32700, not silence.
      new LineTransport(socket, socket),
      this.#options.gate,
      log,
      this.#options.onRequestFinished,
      this.#options.observer !== undefined
        ? { observer: this.#options.observer, sessionKey: hello.sessionKey }
        : undefined,
    );
    const wrapped = opening.wrapTransport?.(transport);
    const handle = serveStdio(opening.factory, {
      legacy: 'serve',
      transport: wrapped?.transport ?? transport,
      onerror: (error) => log.debug({ err: error }, 'mcp connection error'),
    });
    const connection: Connection = {
      socket,
      workspace: hello.workspace,
      transport,
      closeListens: () => wrapped?.closeListens(),
      handle,
      sessionKey: hello.sessionKey,
    };
    this.#connections.add(connection);
    log.info({ client: hello.client, workspace: hello.workspace }, 'session connected');
    let closed = false;
    const onClose = () => {
      if (closed) return;
      closed = true;
      this.#connections.delete(connection);
      opening.close();
      handle.close().catch(() => {});
      log.info('session disconnected');
    };
    socket.on('close', onClose);
    socket.resume();
  }

  /** Stops accepting connections (the socket file stays until removeSocketFile). */
  stopAccepting(): void {
    this.#server.close();
  }

  /**
   * Ends every session: requests still running are answered with -32051,
   * listen streams get their graceful result, then each socket is ended.
   */
  async closeSessions(message: string, timeoutMs = 2000): Promise<void> {
    await Promise.all(
      [...this.#connections].map(async (connection) => {
        await connection.transport.interruptAll(message);
        connection.closeListens();
        await connection.handle.close().catch(() => {});
        connection.socket.end();
      }),
    );
    if (this.#sockets.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        for (const socket of this.#sockets) socket.destroy();
        resolve();
      }, timeoutMs);
      const check = () => {
        if (this.#sockets.size === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (const socket of this.#sockets) socket.once('close', check);
      for (const socket of this.#sockets) if (!socket.destroyed && socket.writableEnded) socket.end();
    });
  }

  removeSocketFile(): void {
    try {
      fs.unlinkSync(this.#options.socketPath);
    } catch {
      // already gone
    }
  }
}
