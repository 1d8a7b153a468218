/**
 * Per-request counts kept as plain numbers and handed to prom-client only
 * when scraped. A prom-client label child is not pre-bound: every `inc()` or
 * `observe()` validates its labels and hashes them into a key, a few
 * microseconds per request, which measured as most of what metrics cost a
 * cached get_decision over HTTP. Here a request adds to a Float64Array slot;
 * the scrape writes the totals into the same series prom-client would have
 * kept (same names, labels and values), so the exposition is unchanged.
 */
import type { Counter, Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;

/** A counter's series as flat slots; `labelsOf` names a slot's labels the first time it is counted. */
export class CounterTally {
  readonly #counts: Float64Array;
  readonly #labels: Array<Labels | undefined>;
  readonly #labelsOf: (slot: number) => Labels;

  constructor(slots: number, labelsOf: (slot: number) => Labels) {
    this.#counts = new Float64Array(slots);
    this.#labels = new Array(slots);
    this.#labelsOf = labelsOf;
  }

  add(slot: number): void {
    if (this.#labels[slot] === undefined) this.#labels[slot] = this.#labelsOf(slot);
    const counts = this.#counts;
    counts[slot] = (counts[slot] as number) + 1;
  }

  /** Sets `counter` to the totals (its collect callback, at scrape time). */
  writeInto(counter: Counter<string>): void {
    counter.reset();
    for (let slot = 0; slot < this.#counts.length; slot++) {
      const labels = this.#labels[slot];
      const count = this.#counts[slot] as number;
      if (labels !== undefined && count > 0) counter.inc(labels, count);
    }
  }
}

interface HistogramValue {
  readonly value: number;
  readonly metricName: string;
  readonly labels: Labels;
}

/**
 * A histogram with one label, its series as slots, registered on `registry`
 * as a metric of its own (prom-client reads any object with get()). Its
 * values are the shape prom-client's Histogram produces: cumulative
 * `_bucket` series by `le` with `+Inf`, then `_sum` and `_count`.
 */
export class HistogramTally {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #label: string;
  readonly #bounds: readonly number[];
  readonly #values: readonly string[];
  /** Per slot: one count per bound (not cumulative), then the overflow. */
  readonly #buckets: Float64Array;
  readonly #sums: Float64Array;
  readonly #counts: Float64Array;

  constructor(
    registry: Registry,
    options: {
      name: string;
      help: string;
      label: string;
      bounds: readonly number[];
      values: readonly string[];
    },
  ) {
    this.name = options.name;
    this.help = options.help;
    this.#label = options.label;
    this.#bounds = options.bounds;
    this.#values = options.values;
    this.#buckets = new Float64Array(options.values.length * (options.bounds.length + 1));
    this.#sums = new Float64Array(options.values.length);
    this.#counts = new Float64Array(options.values.length);
    registry.registerMetric(this as never);
  }

  observe(slot: number, value: number): void {
    const bounds = this.#bounds;
    let bucket = 0;
    while (bucket < bounds.length && value > (bounds[bucket] as number)) bucket++;
    const at = slot * (bounds.length + 1) + bucket;
    this.#buckets[at] = (this.#buckets[at] as number) + 1;
    this.#sums[slot] = (this.#sums[slot] as number) + value;
    this.#counts[slot] = (this.#counts[slot] as number) + 1;
  }

  async get(): Promise<{
    name: string;
    help: string;
    type: string;
    values: HistogramValue[];
    aggregator: string;
  }> {
    const values: HistogramValue[] = [];
    const width = this.#bounds.length + 1;
    for (let slot = 0; slot < this.#values.length; slot++) {
      const count = this.#counts[slot] as number;
      if (count === 0) continue;
      const value = this.#values[slot] as string;
      const bucketName = `${this.name}_bucket`;
      // `le` first, then the label: the order prom-client's own histogram writes them in.
      const bucket = (le: string) => ({ le, [this.#label]: value });
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += this.#buckets[slot * width + i] as number;
        values.push({ value: cumulative, metricName: bucketName, labels: bucket(String(bound)) });
      });
      values.push({ value: count, metricName: bucketName, labels: bucket('+Inf') });
      const labels = { [this.#label]: value };
      values.push({ value: this.#sums[slot] as number, metricName: `${this.name}_sum`, labels });
      values.push({ value: count, metricName: `${this.name}_count`, labels });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#buckets.fill(0);
    this.#sums.fill(0);
    this.#counts.fill(0);
  }
}
