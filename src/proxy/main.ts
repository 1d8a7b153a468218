/**
 * `moor stdio` (the proxy): relays the client's stdio to the user's daemon,
 * starting it when needed. Node built-ins and src/protocol only, so it starts
 * fast; the daemon does the work.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HELLO_VERSION, type SessionHello } from '../protocol/hello.js';
import { statePaths } from '../protocol/state-dir.js';
import { resolveWorkspaceRoot } from '../protocol/workspace-root.js';
import { type ProxyArgs, parsePollMs } from './args.js';
import { DEFAULT_POLL_MS, POLL_ENV } from './change-feed.js';
import { Relay } from './relay.js';

/** `moor-` + 128 random bits, minted once per proxy process: stable across daemon restarts. */
export function mintSessionKey(): string {
  return `moor-${randomBytes(16).toString('hex')}`;
}

function proxyVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function runProxy(args: ProxyArgs): void {
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  let workspace: string;
  try {
    // Same rule as the direct server, so both serve the same workspace for the same client.
    workspace = resolveWorkspaceRoot({ workspace: args.workspace, env: process.env, cwd: process.cwd() });
  } catch (error) {
    warn(`moor: ${(error as Error).message}`);
    process.exit(1);
  }
  const hello: SessionHello = {
    moor: HELLO_VERSION,
    sessionKey: mintSessionKey(),
    client: { name: 'moor-stdio', version: proxyVersion() },
    workspace,
    ...(args.decisions ? { decisions: path.resolve(args.decisions) } : {}),
  };
  const envPoll = process.env[POLL_ENV];
  const fromEnv = envPoll === undefined || envPoll === '' ? undefined : parsePollMs(envPoll);
  if (envPoll !== undefined && envPoll !== '' && fromEnv === undefined)
    warn(`moor: ignoring ${POLL_ENV}=${envPoll}: not a number of milliseconds`);
  const relay = new Relay({
    paths: statePaths(),
    hello,
    pollMs: args.pollMs ?? fromEnv ?? DEFAULT_POLL_MS,
    input: process.stdin,
    output: process.stdout,
    warn,
    onEnd: (code) => {
      // Let stdout drain, then go: the daemon keeps running.
      if (process.stdout.writableLength === 0) process.exit(code);
      process.stdout.once('drain', () => process.exit(code));
      setTimeout(() => process.exit(code), 1000).unref();
    },
  });
  process.stdout.on('error', () => process.exit(0));
  relay.start();
}
