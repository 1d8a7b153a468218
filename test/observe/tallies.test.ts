/**
 * The tallies stand in for prom-client's own counter and histogram children
 * on the hot path: for the same observations, the scrape must print exactly
 * what prom-client's Counter and Histogram print (names, labels, label
 * order, bucket bounds, cumulative counts, sum and count).
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CounterTally, HistogramTally } from '../../src/observe/tallies.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const TOOLS = ['get_decision', 'search_decisions', 'unknown'];

/** One series per line, sorted: series order within a metric is not part of the format's meaning. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .sort();
}

describe('CounterTally and HistogramTally', () => {
  it('scrape to the same exposition as prom-client for the same observations', async () => {
    const theirs = new Registry();
    const counter = new Counter({
      name: 'c_total',
      help: 'C.',
      labelNames: ['tool', 'outcome'],
      registers: [theirs],
    });
    const histogram = new Histogram({
      name: 'd_seconds',
      help: 'D.',
      labelNames: ['tool'],
      buckets: BOUNDS,
      registers: [theirs],
    });

    const ours = new Registry();
    const outcomes = ['ok', 'error'];
    const tally = new CounterTally(TOOLS.length * outcomes.length, (slot) => ({
      tool: TOOLS[Math.floor(slot / 2)] as string,
      outcome: outcomes[slot % 2] as string,
    }));
    new Counter({
      name: 'c_total',
      help: 'C.',
      labelNames: ['tool', 'outcome'],
      registers: [ours],
      collect() {
        tally.writeInto(this);
      },
    });
    const durations = new HistogramTally(ours, {
      name: 'd_seconds',
      help: 'D.',
      label: 'tool',
      bounds: BOUNDS,
      values: TOOLS,
    });

    // Values on bounds, between them, below the first and beyond the last.
    const observations: Array<[number, number, number]> = [
      [0, 0, 0.0005],
      [0, 0, 0.001],
      [0, 1, 0.05],
      [1, 0, 1],
      [1, 0, 7.5],
      [0, 0, 0.1],
    ];
    for (const [tool, outcome, seconds] of observations) {
      counter.inc({ tool: TOOLS[tool] as string, outcome: outcomes[outcome] as string });
      histogram.observe({ tool: TOOLS[tool] as string }, seconds);
      tally.add(tool * 2 + outcome);
      durations.observe(tool, seconds);
    }
    expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
    // A second scrape is the same (collect rewrites the totals, never adds them twice).
    expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
    // A tool never called has no series, as with prom-client.
    expect(await ours.metrics()).not.toContain('tool="unknown"');
  });
});
