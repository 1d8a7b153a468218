/**
 * A Relay wired to in-memory client streams, for the relay unit tests: what
 * the client receives is parsed line by line into `lines`, stderr lines go to
 * `warnings`. The change feed does not poll unless a test sets `pollMs`
 * (then with its own scheduler), so scripted daemons see only what the tests
 * send.
 */
import { PassThrough } from 'node:stream';
import { HELLO_VERSION } from '../../src/protocol/hello.js';
import type { StatePaths } from '../../src/protocol/state-dir.js';
import { Relay, type RelayOptions } from '../../src/proxy/relay.js';

export interface ClientLine {
  id?: number | string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface TestRelay {
  readonly relay: Relay;
  readonly input: PassThrough;
  readonly output: PassThrough;
  readonly lines: ClientLine[];
  readonly warnings: string[];
}

export interface TestRelayOptions {
  readonly paths: StatePaths;
  readonly workspace: string;
  readonly sessionKey: string;
  readonly spawn: NonNullable<RelayOptions['spawn']>;
  readonly startWaitMs?: number;
  readonly pollMs?: number;
  readonly scheduler?: RelayOptions['scheduler'];
}

/** Builds the relay; the test calls `relay.start()`. */
export function createTestRelay(options: TestRelayOptions): TestRelay {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: ClientLine[] = [];
  output.on('data', (c) => {
    for (const l of String(c).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
  });
  const warnings: string[] = [];
  const relay = new Relay({
    paths: options.paths,
    hello: {
      moor: HELLO_VERSION,
      sessionKey: options.sessionKey,
      client: { name: 't', version: '1' },
      workspace: options.workspace,
    },
    input,
    output,
    warn: (l) => warnings.push(l),
    onEnd: () => {},
    spawn: options.spawn,
    ...(options.startWaitMs === undefined ? {} : { startWaitMs: options.startWaitMs }),
    pollMs: options.pollMs ?? 0,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
  });
  return { relay, input, output, lines, warnings };
}
