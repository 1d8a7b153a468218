/**
 * The daemon's metrics while prom-client loads. Importing prom-client (and
 * the OpenTelemetry API it pulls in) is a good part of a daemon's start, and
 * nothing a first request needs: the daemon listens first and loads it then.
 * What is observed meanwhile is kept, in order, and replayed into the real
 * counters once they exist, so no request goes uncounted; a scrape waits
 * for them.
 */
import type { Outcome, Transport } from './labels.js';
import type { DaemonMetrics } from './metrics.js';

/** More observations than a start could see before prom-client is in; past it they are dropped, not kept. */
export const MAX_PENDING_OBSERVATIONS = 100_000;

type Observation = (metrics: DaemonMetrics) => void;

export class DeferredMetrics {
  #metrics: DaemonMetrics | undefined;
  #pending: Observation[] = [];
  #ready: Promise<DaemonMetrics> | undefined;
  #resolveReady!: (metrics: DaemonMetrics) => void;
  #rejectReady!: (error: unknown) => void;
  readonly #whenReady: Promise<DaemonMetrics>;

  constructor() {
    this.#whenReady = new Promise<DaemonMetrics>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    // A scrape reports a failed load; the transports never wait on it.
    this.#whenReady.catch(() => {});
  }

  /** Builds the real metrics (once): pending observations are replayed into them, in order. */
  load(create: () => Promise<DaemonMetrics>): Promise<DaemonMetrics> {
    this.#ready ??= create().then(
      (metrics) => {
        for (const observe of this.#pending) observe(metrics);
        this.#pending = [];
        this.#metrics = metrics;
        this.#resolveReady(metrics);
        return metrics;
      },
      (error: unknown) => {
        this.#pending = [];
        this.#rejectReady(error);
        throw error;
      },
    );
    return this.#ready;
  }

  get loaded(): boolean {
    return this.#metrics !== undefined;
  }

  #observe(observation: Observation): void {
    if (this.#pending.length < MAX_PENDING_OBSERVATIONS) this.#pending.push(observation);
  }

  countRequest(slot: number, outcome: Outcome): void {
    if (this.#metrics !== undefined) this.#metrics.countRequest(slot, outcome);
    else this.#observe((metrics) => metrics.countRequest(slot, outcome));
  }

  listenStream(delta: 1 | -1, method: number): void {
    if (this.#metrics !== undefined) this.#metrics.listenStream(delta, method);
    else this.#observe((metrics) => metrics.listenStream(delta, method));
  }

  admissionRefused(transport: Transport, reason: 'busy' | 'shutting-down'): void {
    if (this.#metrics !== undefined) this.#metrics.admissionRefused(transport, reason);
    else this.#observe((metrics) => metrics.admissionRefused(transport, reason));
  }

  toolCall(tool: string, outcome: Outcome, seconds: number): void {
    if (this.#metrics !== undefined) this.#metrics.toolCall(tool, outcome, seconds);
    else this.#observe((metrics) => metrics.toolCall(tool, outcome, seconds));
  }

  /** The exposition, once the metrics are loaded (what was observed before included). */
  async exposition(): Promise<{ text: string; contentType: string }> {
    const metrics = await this.#whenReady;
    return { text: await metrics.text(), contentType: metrics.contentType };
  }

  async text(): Promise<string> {
    return (await this.exposition()).text;
  }
}
