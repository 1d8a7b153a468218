/**
 * Fuzzes the line-delimited hops with generated hostile frames: direct stdio
 * (`moor stdio --direct`) and the proxy (`moor stdio`, its daemon behind the
 * socket), each in both eras. The process never dies, every request with a
 * usable id is answered exactly once, stdout stays JSON lines, and a valid
 * tools/list still works afterwards.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../src/protocol/json-shape.js';
import { cleanupAll, incarnationPid, isAlive, makeState, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { MODERN_META } from '../helpers/raw-client.js';
import { type Era, type Frame, makeFrames, oversizedFrame } from './frames.js';
import { countOutcome, FRAMES, outcomeOf, printTallies, SEED, tally } from './tally.js';

afterEach(cleanupAll);
afterAll(() => printTallies(SEED));

const keyOf = (id: unknown) => JSON.stringify(id);

class LineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly answers = new Map<string, unknown[]>();
  readonly unparseable: string[] = [];
  readonly stderr: string[] = [];
  #waiters: Array<() => void> = [];

  constructor(args: readonly string[], env: NodeJS.ProcessEnv, onAnswer: (message: unknown) => void) {
    this.child = spawn(process.execPath, [MOOR_BIN, ...args], { env, stdio: 'pipe' });
    createInterface({ input: this.child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.unparseable.push(line.slice(0, 200));
        return;
      }
      const m = message as { id?: unknown; method?: unknown };
      if (m.method !== undefined || !('id' in m)) return; // notifications from the server
      onAnswer(message);
      const key = keyOf(m.id);
      const list = this.answers.get(key) ?? [];
      list.push(message);
      this.answers.set(key, list);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      if (this.stderr.length < 200) this.stderr.push(line);
    });
  }

  async write(text: string): Promise<void> {
    if (!this.child.stdin.write(text))
      await new Promise<void>((resolve) => this.child.stdin.once('drain', () => resolve()));
  }

  /** Resolves once `check` holds; rejects after `ms` (a hang is a failure, not a wait). */
  async until(what: string, check: () => boolean, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(
          `the process exited (${this.child.exitCode ?? this.child.signalCode}) waiting for ${what}; stderr: ${this.stderr.join('\n')}`,
        );
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; stderr: ${this.stderr.slice(-20).join('\n')}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50).unref();
      });
    }
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

function requestLine(era: Era, id: string, method: string, params: Record<string, unknown> = {}): string {
  const p = era === 'modern' ? { ...params, _meta: { ...MODERN_META } } : params;
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: p });
}

async function fuzz(transport: 'direct' | 'proxy', era: Era, state: TestState): Promise<void> {
  const name = `${transport} ${era}`;
  const t = tally(name);
  const args =
    transport === 'direct'
      ? ['stdio', '--direct', '--workspace', E2E_WORKSPACE]
      : ['stdio', '--workspace', E2E_WORKSPACE];
  const proc = new LineProcess(args, state.env, (m) => {
    t.answered += 1;
    countOutcome(t, outcomeOf(m));
  });
  if (era === 'legacy') {
    await proc.write(
      `${requestLine(era, 'init', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } })}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
    );
    await proc.until('the initialize answer', () => proc.answers.has(keyOf('init')), 30_000);
  }
  const frames: Frame[] = makeFrames(
    era,
    FRAMES,
    SEED + (transport === 'proxy' ? 1 : 0) + (era === 'modern' ? 2 : 0),
  );
  frames.splice(Math.floor(frames.length / 2), 0, oversizedFrame('fz-oversized', MAX_LINE_BYTES + 1024));
  const awaited = frames.filter((f) => f.expect !== undefined).map((f) => keyOf(f.expect));
  t.sent += frames.length;
  t.awaited += awaited.length;
  for (let i = 0; i < frames.length; i += 50)
    await proc.write(
      frames
        .slice(i, i + 50)
        .map((f) => `${f.line}\n`)
        .join(''),
    );
  await proc.write(`${requestLine(era, 'final', 'tools/list')}\n`);
  await proc.until('the final tools/list', () => proc.answers.has(keyOf('final')), 60_000);
  await proc
    .until('every awaited answer', () => awaited.every((k) => proc.answers.has(k)), 30_000)
    .catch((error: Error) => {
      const missing = frames.filter((f) => f.expect !== undefined && !proc.answers.has(keyOf(f.expect)));
      throw new Error(
        `${error.message}\nunanswered (${missing.length}): ${missing
          .slice(0, 5)
          .map((f) => f.line.slice(0, 300))
          .join('\n')}`,
      );
    });

  // Params that break a method's schema are the client's fault: -32602 naming the field, never -32603.
  const internal: string[] = [];
  for (const f of frames) {
    if (f.invalidParams !== true) continue;
    const [answer] = (proc.answers.get(keyOf(f.expect)) ?? []) as Array<{
      error?: { code?: number; message?: string };
    }>;
    countOutcome(t, `invalid-params:${answer?.error?.code ?? 'result'}`);
    if (answer?.error?.code === -32603 || /\n/.test(answer?.error?.message ?? ''))
      internal.push(`${JSON.stringify(answer).slice(0, 200)} for ${f.line.slice(0, 200)}`);
  }
  expect(internal.slice(0, 5), `${name}: invalid params never answered -32603 or with a dump`).toEqual([]);
  expect(proc.alive, `${name}: the process is alive`).toBe(true);
  if (transport === 'proxy') {
    const daemon = incarnationPid(state);
    expect(daemon !== undefined && isAlive(daemon), `${name}: the daemon is alive`).toBe(true);
  }
  expect(proc.unparseable, `${name}: stdout is JSON lines`).toEqual([]);
  const twice = awaited.filter((k) => (proc.answers.get(k)?.length ?? 0) !== 1);
  expect(twice, `${name}: answered exactly once`).toEqual([]);
  const final = proc.answers.get(keyOf('final'))?.[0] as { result?: { tools?: unknown[] } };
  expect(final.result?.tools?.length, `${name}: tools/list afterwards`).toBeGreaterThan(0);
  const oversized = proc.answers.get(keyOf('fz-oversized'))?.[0] as { error?: { code: number } };
  expect(oversized.error?.code).toBe(-32600);
  await proc.close();
}

describe('fuzz: line-delimited hops', () => {
  for (const transport of ['direct', 'proxy'] as const) {
    for (const era of ['legacy', 'modern'] as const) {
      it(`${transport}, ${era} era: ${FRAMES} hostile frames, no crash, every usable id answered once`, async () => {
        await fuzz(transport, era, makeState());
      }, 120_000);
    }
  }
});
