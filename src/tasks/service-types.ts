/**
 * The task service's options and what it hands a task's work and takes to
 * start one.
 */
import type { InputRequest, InputResponse } from '@modelcontextprotocol/server';
import type { ClusterBus } from '../events/bus.js';
import type { TaskStore } from '../store/task-store.js';
import type { CancellationPolicy } from './runtime.js';

/** What the work of a task gets from the runtime. */
export interface TaskWorkEnvironment {
  readonly taskId: string;
  /** Aborts on tasks/cancel under the 'abort' policy, and at daemon shutdown. */
  readonly signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  requestInput(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, InputResponse>>;
}

export interface StartOptions {
  readonly cancellation: CancellationPolicy;
  /** Answers gathered before the task existed (multi-round-trip rounds on the tools/call). */
  readonly preAnswered?: Readonly<Record<string, InputResponse>>;
}

export interface TaskServiceOptions {
  readonly store: TaskStore;
  /** Identifies this daemon run: the lease owner of the tasks it runs. */
  readonly incarnation: string;
  /** Carries cancellations, input responses and status changes between daemons (default: none). */
  readonly bus?: ClusterBus | undefined;
  readonly retentionMs?: number | undefined;
  readonly pollIntervalMs?: number | undefined;
  /** How long a lease lasts; renewed every third of it (default 15 s). */
  readonly leaseMs?: number | undefined;
  /** How often expired rows are deleted (default: min(retention, 60 s)); 0 disables. */
  readonly sweepIntervalMs?: number | undefined;
  readonly now?: () => number;
  /** Bytes of finished tasks' results kept while the store cannot take them (default 64 MiB). */
  readonly unwrittenResultBytes?: number | undefined;
  /** How long close() tries once more to write completions the store has not taken (default 2 s). */
  readonly closeFlushMs?: number | undefined;
  /** A task's row changed: here ('local'), or on another daemon ('remote', read it from the store). */
  onStatusChange?(taskId: string, origin: 'local' | 'remote'): void;
  /** Unexpected failures of task work (never stdout). */
  onInternalError?(error: unknown, tool: string): void;
  log?(message: string, fields?: Record<string, unknown>): void;
}

/** What the modules that write a running task's row borrow from the service. */
export interface TaskWriter {
  readonly store: TaskStore;
  now(): number;
  /** A status write of ours applied: tell this daemon's listeners and the other daemons. */
  changed(taskId: string): void;
  /** Runs `work` unawaited; a failure is logged with `failure`. */
  background(work: Promise<unknown>, failure: string): void;
}
