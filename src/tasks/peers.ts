/**
 * The task service's dealings with other daemons: the leases on the tasks
 * this daemon runs (renewed every third of the lease, which also picks up
 * cancellations recorded in their rows), failing the tasks of daemons whose
 * lease ran out, and the cluster bus (cancellations and input responses for
 * the tasks this daemon runs, status changes made elsewhere, and a re-read
 * of the rows after the bus lost messages).
 */

import { JsonRpcCode } from '../errors.js';
import type { ClusterBus, ClusterMessage } from '../events/bus.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { Runtime } from './runtime.js';

export const INTERRUPTED_MESSAGE = 'Task interrupted: the daemon restarted';
export const LEASE_EXPIRED_MESSAGE = 'Task interrupted: the daemon running it stopped';

/** What the service lends: its runtimes and the operations on them. */
export interface PeersHost {
  readonly store: TaskStore;
  readonly incarnation: string;
  readonly leaseMs: number;
  readonly bus: ClusterBus;
  now(): number;
  runtime(id: string): Runtime | undefined;
  runningIds(): string[];
  cancelHere(runtime: Runtime): Promise<void>;
  answer(runtime: Runtime, responses: Readonly<Record<string, unknown>>): Promise<void>;
  /** A status write of ours applied. */
  changed(taskId: string): void;
  /** A task changed on another daemon. */
  changedElsewhere(taskId: string): void;
  background(work: Promise<unknown>, failure: string): void;
}

export class TaskPeers {
  readonly #host: PeersHost;
  readonly #unsubscribe: () => void;
  /** Since when the store has answered our lease checks (-Infinity: no outage seen). */
  #answeringSince = Number.NEGATIVE_INFINITY;

  constructor(host: PeersHost) {
    this.#host = host;
    this.#unsubscribe = host.bus.subscribe((message) => this.#onMessage(message), {
      resync: (since) => host.background(this.#resync(since), 'task resync failed'),
    });
  }

  /**
   * At start: fails what stopped daemons left running. Nobody else uses an
   * unshared store, so there every lease but ours is a stopped daemon's,
   * expired or not; in a shared one only expired leases are.
   */
  async interruptAtStart(): Promise<string[]> {
    const { store, incarnation } = this.#host;
    const now = this.#host.now();
    const ids = await store.interruptExpired(
      incarnation,
      store.shared ? now : Number.MAX_SAFE_INTEGER,
      {
        code: JsonRpcCode.InternalError,
        message: store.shared ? LEASE_EXPIRED_MESSAGE : INTERRUPTED_MESSAGE,
      },
      now,
    );
    for (const id of ids) this.#host.changed(id);
    return ids;
  }

  /** True when another live daemon runs the task (a shared store, its lease still good). */
  runsElsewhere(task: TaskRecord, now: number): boolean {
    const { store, incarnation } = this.#host;
    return store.shared && task.leaseOwner !== incarnation && task.leaseExpiresAt > now;
  }

  /**
   * The store could not be reached. Nor could the peers reach it, most
   * likely, so their leases ran out without their being dead: expire none
   * until they have had a full lease to renew.
   */
  storeUnreachable(): void {
    this.#answeringSince = Number.POSITIVE_INFINITY;
  }

  /** Renews our leases (acting on recorded cancellations), then fails expired tasks of other daemons. */
  async checkLeases(): Promise<void> {
    const host = this.#host;
    const now = host.now();
    const cancelled = await host.store.renewLeases(host.incarnation, host.runningIds(), now + host.leaseMs);
    for (const id of cancelled) {
      const runtime = host.runtime(id);
      if (runtime !== undefined && !runtime.cancelRequested) await host.cancelHere(runtime);
    }
    if (this.#answeringSince === Number.POSITIVE_INFINITY) this.#answeringSince = now;
    if (now - this.#answeringSince < host.leaseMs) return;
    const error = { code: JsonRpcCode.InternalError, message: LEASE_EXPIRED_MESSAGE };
    for (const id of await host.store.interruptExpired(host.incarnation, now, error, now)) host.changed(id);
  }

  #onMessage(message: ClusterMessage): void {
    const host = this.#host;
    if (message.kind === 'task-status') {
      host.changedElsewhere(message.taskId);
      return;
    }
    if (message.kind !== 'task-cancel' && message.kind !== 'task-input') return;
    if (message.leaseOwner !== host.incarnation) return;
    const runtime = host.runtime(message.taskId);
    if (runtime === undefined) return;
    if (message.kind === 'task-cancel') host.background(host.cancelHere(runtime), 'task cancel failed');
    else host.background(host.answer(runtime, message.responses), 'task update failed');
  }

  /** After the bus lost messages: re-read the rows that changed, act on cancellations of our tasks. */
  async #resync(since: number): Promise<void> {
    const host = this.#host;
    for (const task of await host.store.changedSince(since, host.now())) {
      host.changedElsewhere(task.id);
      const runtime = host.runtime(task.id);
      if (runtime !== undefined && task.cancelRequestedAt !== null && !runtime.cancelRequested)
        await host.cancelHere(runtime);
    }
  }

  close(): void {
    this.#unsubscribe();
  }
}
