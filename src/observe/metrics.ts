/**
 * The daemon's Prometheus metrics, on a registry of its own (never
 * prom-client's global one, so nothing else in the process can add series).
 * Per-request counts (requests, tool calls, tool durations) are tallies in
 * flat arrays indexed by small integers (tallies.ts), written into their
 * series at scrape time: the hot path does a few array writes and allocates
 * nothing.
 * Gauges of state the daemon already keeps (in-flight requests, sessions,
 * rooms, tasks) are read at scrape time by collect callbacks.
 */
import type { Counter, Gauge, Registry } from 'prom-client';
import {
  ERAS,
  type Era,
  LISTEN_METHOD_INDEX,
  METHODS,
  methodLabel,
  OUTCOMES,
  type Outcome,
  TRANSPORTS,
  type Transport,
  UNKNOWN_TOOL,
} from './labels.js';
import { CounterTally, HistogramTally } from './tallies.js';

/** What the scrape-time gauges read. */
export interface MetricsSources {
  inFlight(): number;
  sessions(): number;
  roomsLoaded(): number;
  /** Task counts by status (statuses absent count 0). */
  tasksByStatus(): Readonly<Record<string, number>>;
  /** Payloads heard on the cluster bus and dropped (not moor's, or not verified); absent = none. */
  busDropped?(): number;
}

export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

type PromClient = typeof import('prom-client');
type CounterChild = ReturnType<Counter<string>['labels']>;

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const METHOD_SLOTS = METHODS.length + 1; // the allow-list plus "other"

/**
 * A request's label slot: transport, era and method packed into one integer,
 * so an observer keeps a number per request rather than an object.
 */
export function requestSlot(transport: Transport, era: Era, method: number): number {
  return (
    ((transport === 'socket' ? 0 : 1) * ERAS.length + (era === 'modern' ? 0 : 1)) * METHOD_SLOTS + method
  );
}

export function slotMethod(slot: number): number {
  return slot % METHOD_SLOTS;
}

/** The labels of a request counter slot (slot × outcome, as countRequest numbers them). */
function requestLabels(index: number): Record<string, string> {
  const slot = Math.floor(index / OUTCOMES.length);
  const perTransport = ERAS.length * METHOD_SLOTS;
  return {
    transport: TRANSPORTS[Math.floor(slot / perTransport)] as Transport,
    era: ERAS[Math.floor((slot % perTransport) / METHOD_SLOTS)] as Era,
    method: methodLabel(slot % METHOD_SLOTS),
    outcome: OUTCOMES[index % OUTCOMES.length] as string,
  };
}

export const OUTCOME_INDEX: Readonly<Record<Outcome, number>> = { ok: 0, error: 1, refused: 2, cancelled: 3 };

export class DaemonMetrics {
  readonly registry: Registry;
  readonly #requests: CounterTally;
  readonly #refused: Counter<string>;
  readonly #refusedChildren = new Map<string, CounterChild>();
  readonly #toolCalls: CounterTally;
  readonly #toolDuration: HistogramTally;
  /** A tool's slot in the tool tallies (unknown names share the "unknown" slot). */
  readonly #toolSlots = new Map<string, number>();
  readonly #unknownToolSlot: number;
  readonly #listenStreams: Gauge<string>;

  constructor(prom: PromClient, toolNames: readonly string[], sources: MetricsSources) {
    const registry = new prom.Registry();
    this.registry = registry;
    prom.collectDefaultMetrics({ register: registry });
    const requests = new CounterTally(
      TRANSPORTS.length * ERAS.length * METHOD_SLOTS * OUTCOMES.length,
      requestLabels,
    );
    this.#requests = requests;
    new prom.Counter({
      name: 'moor_requests_total',
      help: 'MCP requests answered, by transport, protocol era, method and outcome.',
      labelNames: ['transport', 'era', 'method', 'outcome'],
      registers: [registry],
      collect() {
        requests.writeInto(this);
      },
    });
    this.#refused = new prom.Counter({
      name: 'moor_admission_refused_total',
      help: 'Requests the admission gate refused (busy or shutting down).',
      labelNames: ['transport', 'reason'],
      registers: [registry],
    });
    const tools = [...toolNames, UNKNOWN_TOOL];
    for (const [slot, name] of tools.entries()) this.#toolSlots.set(name, slot);
    this.#unknownToolSlot = tools.length - 1;
    const toolCalls = new CounterTally(tools.length * OUTCOMES.length, (slot) => ({
      tool: tools[Math.floor(slot / OUTCOMES.length)] as string,
      outcome: OUTCOMES[slot % OUTCOMES.length] as string,
    }));
    this.#toolCalls = toolCalls;
    new prom.Counter({
      name: 'moor_tool_calls_total',
      help: 'tools/call by tool and outcome (error: a JSON-RPC error or an isError result).',
      labelNames: ['tool', 'outcome'],
      registers: [registry],
      collect() {
        toolCalls.writeInto(this);
      },
    });
    this.#toolDuration = new HistogramTally(registry, {
      name: 'moor_tool_call_duration_seconds',
      help: 'How long tool handlers ran, by tool.',
      label: 'tool',
      bounds: DURATION_BUCKETS,
      values: tools,
    });
    this.#listenStreams = new prom.Gauge({
      name: 'moor_listen_streams',
      help: 'Open subscriptions/listen streams (socket and HTTP).',
      registers: [registry],
    });
    new prom.Gauge({
      name: 'moor_inflight_requests',
      help: 'Requests holding an admission slot now.',
      registers: [registry],
      collect() {
        this.set(sources.inFlight());
      },
    });
    new prom.Gauge({
      name: 'moor_sessions',
      help: 'Sessions the daemon knows now.',
      registers: [registry],
      collect() {
        this.set(sources.sessions());
      },
    });
    new prom.Gauge({
      name: 'moor_rooms_loaded',
      help: 'Workspaces loaded now (decisions parsed, indexed and watched).',
      registers: [registry],
      collect() {
        this.set(sources.roomsLoaded());
      },
    });
    new prom.Gauge({
      name: 'moor_tasks',
      help: 'Durable tasks in the store, by status.',
      labelNames: ['status'],
      registers: [registry],
      collect() {
        const counts = sources.tasksByStatus();
        for (const status of TASK_STATUSES) this.labels(status).set(counts[status] ?? 0);
      },
    });
    new prom.Counter({
      name: 'moor_bus_dropped_messages_total',
      help: 'Cluster bus payloads dropped since start: not a moor message, malformed, or not verified.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sources.busDropped?.() ?? 0);
      },
    });
  }

  /** One answered (or refused, or cancelled) request in `slot` (see requestSlot). */
  countRequest(slot: number, outcome: Outcome): void {
    this.#requests.add(slot * OUTCOMES.length + OUTCOME_INDEX[outcome]);
  }

  /** A listen stream opened (+1) or closed (-1). */
  listenStream(delta: 1 | -1, method: number): void {
    if (method === LISTEN_METHOD_INDEX) this.#listenStreams.inc(delta);
  }

  admissionRefused(transport: Transport, reason: 'busy' | 'shutting-down'): void {
    const key = `${transport} ${reason}`;
    let child = this.#refusedChildren.get(key);
    if (child === undefined) {
      child = this.#refused.labels(transport, reason === 'busy' ? 'busy' : 'shutting_down');
      this.#refusedChildren.set(key, child);
    }
    child.inc();
  }

  /** One tools/call: the tool's label is its catalog name, or "unknown". */
  toolCall(tool: string, outcome: Outcome, seconds: number): void {
    const slot = this.#toolSlots.get(tool) ?? this.#unknownToolSlot;
    this.#toolCalls.add(slot * OUTCOMES.length + OUTCOME_INDEX[outcome]);
    this.#toolDuration.observe(slot, seconds);
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Loads prom-client (only a daemon that serves metrics pays for it) and builds the metrics. */
export async function createDaemonMetrics(
  toolNames: readonly string[],
  sources: MetricsSources,
): Promise<DaemonMetrics> {
  const prom = (await import('prom-client')) as PromClient & { default?: PromClient };
  return new DaemonMetrics(
    prom.Registry === undefined && prom.default ? prom.default : prom,
    toolNames,
    sources,
  );
}
