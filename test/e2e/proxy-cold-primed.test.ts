/**
 * `moor stdio` with no daemon running answers the handshake and the static
 * lists from the answers the build recorded from the daemon, while the daemon
 * it started comes up: byte for byte what a running daemon answers the same
 * client, in both eras; the daemon then knows the session (its legacy
 * initialize, its workspace) and serves the calls that follow. A daemon that
 * refuses to start after those first answers still says why, on the next
 * request. Driven by the official SDK client over a transport that keeps
 * the raw lines.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, makeState, paths, runCli, startDaemon, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';

afterEach(cleanupAll);

type Message = Record<string, unknown>;

/** The SDK client's stdio, with every line the proxy wrote kept as written. */
class RecordingStdio {
  readonly lines: string[] = [];
  readonly stderr: string[] = [];
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #child: ChildProcessWithoutNullStreams | undefined;
  readonly #env: Record<string, string>;
  readonly #bin: string;

  constructor(env: Record<string, string>, bin = MOOR_BIN) {
    this.#env = env;
    this.#bin = bin;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [this.#bin, 'stdio', '--workspace', E2E_WORKSPACE], {
      stdio: 'pipe',
      env: this.#env,
    });
    this.#child = child;
    createInterface({ input: child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.onmessage?.(JSON.parse(line) as Message);
    });
    createInterface({ input: child.stderr }).on('line', (line) => this.stderr.push(line));
    child.on('exit', () => this.onclose?.());
  }

  async send(message: Message): Promise<void> {
    this.#child?.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }

  /** Every answer line so far (requests' ids, never notifications), exactly as written. */
  answers(): string[] {
    return this.lines.filter((l) => 'id' in (JSON.parse(l) as Message));
  }
}

const MODES = ['legacy', 'auto', 'modern'] as const;
type Mode = (typeof MODES)[number];

/** Connects (the handshake, when the mode has one), then lists tools and templates. */
async function firstAnswers(
  state: TestState,
  mode: Mode,
  bin = MOOR_BIN,
): Promise<{ client: Client; io: RecordingStdio }> {
  const client = new Client(
    { name: 'moor-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : mode } },
  );
  const io = new RecordingStdio(state.env, bin);
  await client.connect(io as never);
  await client.listTools();
  await client.listResourceTemplates();
  return { client, io };
}

/** The first answers (handshake, tools/list, resources/templates/list) as the client got them. */
function firstThree(io: RecordingStdio): string[] {
  const answers = io.answers();
  expect(answers.map((l) => Object.keys((JSON.parse(l) as { result: Message }).result))).toEqual(
    expect.arrayContaining([
      expect.arrayContaining(['tools']),
      expect.arrayContaining(['resourceTemplates']),
    ]),
  );
  return answers;
}

async function reference(mode: Mode): Promise<string[]> {
  const state = makeState();
  await startDaemon(state);
  const { client, io } = await firstAnswers(state, mode);
  const lines = firstThree(io);
  await client.close();
  return lines;
}

describe('moor stdio with no daemon: primed first answers', () => {
  for (const mode of MODES) {
    it(`${mode}: a daemon that refuses to start after them: the answers are the daemon's bytes, the next request says why`, async () => {
      const expected = await reference(mode);
      const state = makeState();
      // Starts like SQLite, is none: the proxy primes, the daemon it starts refuses (STORE_CORRUPT).
      fs.writeFileSync(
        paths(state).database,
        Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080, 0x5a)]),
      );
      const { client, io } = await firstAnswers(state, mode);
      // No daemon ever answered this session: these came from the primed answers.
      expect(firstThree(io)).toEqual(expected);
      const call = client.callTool({ name: 'list_workspaces', arguments: {} });
      await expect(call).rejects.toThrow(/moor: the daemon refuses to start: .*--reset-store/);
      await client.close();
    });

    it(`${mode}: the answers are the daemon's bytes; the daemon comes up, knows the session and serves the next call`, async () => {
      const expected = await reference(mode);
      const state = makeState();
      const { client, io } = await firstAnswers(state, mode);
      expect(firstThree(io)).toEqual(expected);
      const result = await client.callTool({ name: 'list_workspaces', arguments: {} });
      expect(JSON.stringify(result.structuredContent)).toContain(JSON.stringify(E2E_WORKSPACE));
      // The daemon was told who the client is: the replayed initialize, or the envelope of the proxy's own list.
      const sessions = await runCli(state, ['sessions', 'list', '--json']);
      expect(sessions.stdout).toContain('moor-e2e');
      expect(io.stderr.join('\n')).not.toContain('refused');
      await client.close();
    });
  }
});

/** A copy of this build where `npm install` of its package would put it: another path, every file one old time. */
function installedCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-installed-'));
  copies.push(dir);
  fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  // npm writes a package's files with one fixed time (1985-10-26 08:15 UTC).
  const packed = new Date('1985-10-26T08:15:00Z');
  const touch = (p: string): void => {
    if (fs.statSync(p).isDirectory()) for (const name of fs.readdirSync(p)) touch(path.join(p, name));
    fs.utimesSync(p, packed, packed);
  };
  touch(path.join(dir, 'dist'));
  return dir;
}

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

/** A store that starts like SQLite and is none: the daemon a proxy starts refuses it. */
function corruptStore(state: TestState): void {
  fs.writeFileSync(
    paths(state).database,
    Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080, 0x5a)]),
  );
}

describe('an installed copy (another path, other file times): primed while its daemon bundle is the one recorded', () => {
  it('answers the first requests from the answers the build recorded, the same bytes', async () => {
    const expected = await reference('legacy');
    const bin = path.join(installedCopy(), 'dist/cli/main.js');
    const state = makeState();
    corruptStore(state);
    const { client, io } = await firstAnswers(state, 'legacy', bin);
    expect(firstThree(io)).toEqual(expected);
    await client.close();
  });

  it('waits for the daemon when one byte of that bundle differs', async () => {
    const copy = installedCopy();
    fs.appendFileSync(path.join(copy, 'dist/bundle/daemon.js'), '\n// changed\n');
    const state = makeState();
    corruptStore(state);
    // Nothing primed: the first request waits for the daemon, which refuses to start.
    await expect(firstAnswers(state, 'legacy', path.join(copy, 'dist/cli/main.js'))).rejects.toThrow(
      /daemon refuses to start/,
    );
  });
});
