/**
 * Metrics while prom-client loads: what the transports observe before the
 * counters exist is counted once they do, a scrape waits for them, and a
 * failed load is what a scrape reports.
 */
import { describe, expect, it } from 'vitest';
import { DeferredMetrics } from '../../src/observe/deferred-metrics.js';
import { methodIndex } from '../../src/observe/labels.js';
import { createDaemonMetrics, type DaemonMetrics, requestSlot } from '../../src/observe/metrics.js';

const sources = { inFlight: () => 0, sessions: () => 0, roomsLoaded: () => 0, tasksByStatus: () => ({}) };

function line(text: string, prefix: string): string | undefined {
  return text.split('\n').find((l) => l.startsWith(prefix));
}

describe('DeferredMetrics', () => {
  it('counts what was observed before the load, and a scrape waits for the load', async () => {
    const deferred = new DeferredMetrics();
    const listSlot = requestSlot('socket', 'modern', methodIndex('tools/list'));
    deferred.countRequest(listSlot, 'ok');
    deferred.countRequest(listSlot, 'ok');
    deferred.toolCall('get_decision', 'error', 0.002);
    deferred.admissionRefused('http', 'busy');

    let scraped = false;
    const scrape = deferred.exposition().then((page) => {
      scraped = true;
      return page;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const loading = deferred.load(async () => {
      await gate;
      return createDaemonMetrics(['get_decision'], sources);
    });
    await Promise.resolve();
    expect(scraped).toBe(false);
    expect(deferred.loaded).toBe(false);

    release();
    await loading;
    const { text, contentType } = await scrape;
    deferred.countRequest(listSlot, 'ok');
    expect(contentType).toContain('text/plain');
    // The scrape waited for the load and saw the observations made before it.
    expect(
      line(text, 'moor_requests_total{transport="socket",era="modern",method="tools/list",outcome="ok"}'),
    ).toMatch(/ 2$/);
    expect(line(text, 'moor_tool_calls_total{tool="get_decision",outcome="error"}')).toMatch(/ 1$/);
    expect(line(text, 'moor_admission_refused_total{transport="http",reason="busy"}')).toMatch(/ 1$/);
    // Once loaded, an observation goes straight to the counters.
    expect(
      line(
        await deferred.text(),
        'moor_requests_total{transport="socket",era="modern",method="tools/list",outcome="ok"}',
      ),
    ).toMatch(/ 3$/);
  });

  it('loads once, however often it is asked', async () => {
    const deferred = new DeferredMetrics();
    let builds = 0;
    const create = (): Promise<DaemonMetrics> => {
      builds += 1;
      return createDaemonMetrics([], sources);
    };
    const [a, b] = await Promise.all([deferred.load(create), deferred.load(create)]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
  });

  it('a failed load is what a scrape answers', async () => {
    const deferred = new DeferredMetrics();
    deferred.countRequest(0, 'ok');
    const failure = new Error('prom-client missing');
    await expect(deferred.load(() => Promise.reject(failure))).rejects.toBe(failure);
    await expect(deferred.exposition()).rejects.toBe(failure);
  });
});
