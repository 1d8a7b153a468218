import { describe, expect, it } from 'vitest';
import { Reaper } from '../../src/sessions/reaper.js';

describe('Reaper', () => {
  it('runs every sweep with one clock reading, in order, past a failing one', async () => {
    const seen: Array<[string, number]> = [];
    const errors: unknown[] = [];
    const reaper = new Reaper({
      now: () => 42,
      onError: (error) => errors.push(error),
      sweeps: [
        (now) => seen.push(['rooms', now]),
        () => {
          throw new Error('store down');
        },
        async (now) => {
          seen.push(['sessions', now]);
        },
      ],
    });
    await reaper.runOnce();
    expect(seen).toEqual([
      ['rooms', 42],
      ['sessions', 42],
    ]);
    expect(errors).toEqual([new Error('store down')]);
  });

  it('a run in progress is joined, not started twice', async () => {
    let release: () => void = () => {};
    let runs = 0;
    const reaper = new Reaper({
      sweeps: [
        () => {
          runs += 1;
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        },
      ],
    });
    const first = reaper.runOnce(1);
    const second = reaper.runOnce(2);
    release();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
    reaper.start();
    reaper.stop();
  });
});
