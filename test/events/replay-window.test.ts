/**
 * The replay window: each sender's message numbers are accepted once, in
 * any order within the window, and refused once they fall behind it.
 */
import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW, ReplayWindow } from '../../src/events/replay-window.js';

describe('ReplayWindow', () => {
  it('accepts each number of a sender once, out of order too, and each sender apart', () => {
    const window = new ReplayWindow();
    expect([3, 1, 2].map((seq) => window.accept('a', seq))).toEqual([true, true, true]);
    expect([1, 2, 3].map((seq) => window.accept('a', seq))).toEqual([false, false, false]);
    expect(window.accept('b', 1)).toBe(true);
    expect(window.accept('b', 1)).toBe(false);
  });

  it('refuses a number that fell behind the window, even one never seen', () => {
    const window = new ReplayWindow();
    expect(window.accept('a', 5)).toBe(true);
    const newest = 5 + REPLAY_WINDOW * 3;
    expect(window.accept('a', newest)).toBe(true);
    expect(window.accept('a', newest - REPLAY_WINDOW)).toBe(false);
    expect(window.accept('a', newest - REPLAY_WINDOW + 1)).toBe(true);
    expect(window.accept('a', 6)).toBe(false);
  });

  it('keeps refusing repeats after many messages (what it forgets is behind the window)', () => {
    const window = new ReplayWindow();
    for (let seq = 1; seq <= REPLAY_WINDOW * 4; seq++) expect(window.accept('a', seq)).toBe(true);
    for (let seq = REPLAY_WINDOW * 3 + 1; seq <= REPLAY_WINDOW * 4; seq++)
      expect(window.accept('a', seq)).toBe(false);
    expect(window.accept('a', 1)).toBe(false);
  });
});
