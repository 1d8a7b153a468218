/**
 * A room loader the test drives by hand: every load waits until the test
 * resolves (or fails) it, so races are ordered by the test, not by timers.
 * Handles record their release, and releasing one twice fails the test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionManager, type SessionManagerOptions } from '../../src/sessions/manager.js';
import type { RoomKey } from '../../src/sessions/rooms.js';
import { MemorySessionStore } from '../../src/store/memory-session-store.js';
import type { SessionStore } from '../../src/store/session-store.js';

export interface TestRoom {
  readonly key: RoomKey;
  readonly decisionCount: number;
  released: boolean;
  release(): void;
}

interface PendingLoad {
  readonly key: RoomKey;
  resolve(decisionCount?: number): TestRoom;
  reject(error: unknown): void;
}

export class ControlledLoader {
  readonly pending: PendingLoad[] = [];
  readonly loads: string[] = [];
  readonly released: string[] = [];
  /** When true, loads resolve at once (for tests about something else). */
  auto: boolean;
  readonly #waiters: Array<{ root: string; resolve(): void }> = [];

  constructor(auto = false) {
    this.auto = auto;
  }

  load = (key: RoomKey): Promise<TestRoom> => {
    this.loads.push(key.root);
    return new Promise<TestRoom>((resolve, reject) => {
      const load: PendingLoad = {
        key,
        resolve: (decisionCount = 3) => {
          const room = this.#room(key, decisionCount);
          resolve(room);
          return room;
        },
        reject,
      };
      if (this.auto) load.resolve();
      else this.pending.push(load);
      for (const waiter of this.#waiters.filter((w) => w.root === key.root)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  };

  /** Settles once a load for `root` is pending (the manager reached its loader). */
  started(root: string): Promise<void> {
    if (this.pending.some((p) => p.key.root === root)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ root, resolve }));
  }

  /** Resolves the oldest pending load for `root` (fails the test when there is none). */
  finish(root: string, decisionCount?: number): TestRoom {
    const index = this.pending.findIndex((p) => p.key.root === root);
    const load = this.pending.splice(index, 1)[0];
    if (index < 0 || load === undefined) throw new Error(`no pending load for ${root}`);
    return load.resolve(decisionCount);
  }

  fail(root: string, error: unknown): void {
    const index = this.pending.findIndex((p) => p.key.root === root);
    const load = this.pending.splice(index, 1)[0];
    if (index < 0 || load === undefined) throw new Error(`no pending load for ${root}`);
    load.reject(error);
  }

  #room(key: RoomKey, decisionCount: number): TestRoom {
    const released = this.released;
    return {
      key,
      decisionCount,
      released: false,
      release() {
        if (this.released) throw new Error(`room ${key.root} released twice`);
        this.released = true;
        released.push(key.root);
      },
    };
  }
}

const dirs: string[] = [];

/** Fresh real directories (resolved through symlinks), removed by cleanupDirs(). */
export function makeDirs(...names: string[]): Record<string, string> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-ws-')));
  dirs.push(base);
  const out: Record<string, string> = {};
  for (const name of names) {
    out[name] = path.join(base, name);
    fs.mkdirSync(out[name]);
  }
  return out;
}

export function cleanupDirs(): void {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface Harness {
  readonly manager: SessionManager<TestRoom>;
  readonly loader: ControlledLoader;
  readonly store: SessionStore;
  readonly clock: { now: number };
}

export function harness(
  options: Partial<SessionManagerOptions<TestRoom>> & { auto?: boolean; store?: SessionStore } = {},
): Harness {
  const loader = new ControlledLoader(options.auto ?? true);
  const store = options.store ?? new MemorySessionStore();
  const clock = { now: 1_000_000 };
  const manager = new SessionManager<TestRoom>({
    now: () => clock.now,
    ...options,
    store,
    loadRoom: loader.load,
    summarize: (room) => ({ decisionCount: room.decisionCount, problems: 0 }),
  });
  return { manager, loader, store, clock };
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected a rejection');
}

/**
 * Binds session `key` to `first` (its load finished), then starts a connect
 * to `second` and waits until its load is pending: the test settles it.
 */
export async function boundThenLoading(
  { manager, loader }: Harness,
  key: string,
  first: string,
  second: string,
): Promise<{ readonly second: ReturnType<Harness['manager']['connect']> }> {
  const connected = manager.connect(key, { root: first });
  await loader.started(first);
  loader.finish(first);
  await connected;
  const pending = manager.connect(key, { root: second });
  await loader.started(second);
  return { second: pending };
}
