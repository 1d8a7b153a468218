import { afterEach, describe, expect, it, vi } from 'vitest';
import { Rooms } from '../../src/sessions/rooms.js';

afterEach(() => {
  vi.useRealTimers();
});

function setup(keepAliveMs = 1000) {
  const opened: string[] = [];
  const closed: string[] = [];
  const rooms = new Rooms({
    keepAliveMs,
    open: (key) => {
      opened.push(key.root);
      return { close: () => closed.push(key.root) };
    },
  });
  return { rooms, opened, closed };
}

describe('Rooms', () => {
  it('shares one room per workspace between connections', () => {
    const { rooms, opened } = setup();
    const a = rooms.acquire({ root: '/repo' });
    const b = rooms.acquire({ root: '/repo' });
    expect(a.room).toBe(b.room);
    expect(opened).toEqual(['/repo']);
    expect(a.room.connections).toBe(2);
  });

  it('keeps a different decisions folder in its own room', () => {
    const { rooms, opened } = setup();
    rooms.acquire({ root: '/repo' });
    rooms.acquire({ root: '/repo', decisions: '/repo/adr' });
    expect(opened).toEqual(['/repo', '/repo']);
    expect(rooms.size).toBe(2);
  });

  it('unloads a room after the keep-alive once the last connection leaves', () => {
    vi.useFakeTimers();
    const { rooms, closed } = setup(1000);
    const a = rooms.acquire({ root: '/repo' });
    const b = rooms.acquire({ root: '/repo' });
    a.release();
    a.release(); // idempotent
    vi.advanceTimersByTime(5000);
    expect(closed).toEqual([]);
    b.release();
    vi.advanceTimersByTime(999);
    expect(closed).toEqual([]);
    expect(rooms.list()).toEqual([{ root: '/repo', decisions: undefined, connections: 0 }]);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(['/repo']);
    expect(rooms.size).toBe(0);
  });

  it('a connection joining during the keep-alive keeps the room loaded', () => {
    vi.useFakeTimers();
    const { rooms, opened, closed } = setup(1000);
    rooms.acquire({ root: '/repo' }).release();
    vi.advanceTimersByTime(500);
    const again = rooms.acquire({ root: '/repo' });
    vi.advanceTimersByTime(5000);
    expect(closed).toEqual([]);
    expect(opened).toEqual(['/repo']);
    again.release();
    vi.advanceTimersByTime(1000);
    expect(closed).toEqual(['/repo']);
  });

  it("keep() holds a room one keep-alive after the last keep, on the room's own timer, then unloads it one later", () => {
    vi.useFakeTimers();
    const { rooms, closed } = setup(1000);
    const room = rooms.keep({ root: '/repo' });
    expect(room.connections).toBe(1);
    vi.advanceTimersByTime(900);
    expect(rooms.keep({ root: '/repo' })).toBe(room);
    expect(room.connections).toBe(1);
    // A connection joining and leaving while kept neither ends nor extends the hold.
    rooms.acquire({ root: '/repo' }).release();
    vi.advanceTimersByTime(999);
    expect(room.connections).toBe(1);
    vi.advanceTimersByTime(1);
    expect(room.connections).toBe(0);
    expect(rooms.reap(Date.now())).toEqual([]);
    vi.advanceTimersByTime(999);
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(['/repo']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a kept room is never reaped, and keep() calls off a pending unload', () => {
    vi.useFakeTimers();
    const { rooms, closed } = setup(1000);
    rooms.acquire({ root: '/repo' }).release();
    vi.advanceTimersByTime(500);
    rooms.keep({ root: '/repo' });
    expect(vi.getTimerCount()).toBe(1);
    expect(rooms.reap(Date.now() + 48 * 60 * 60 * 1000)).toEqual([]);
    vi.advanceTimersByTime(1999);
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(['/repo']);
  });

  it('closeAll unloads everything', () => {
    const { rooms, closed } = setup();
    rooms.acquire({ root: '/a' });
    rooms.acquire({ root: '/b' });
    rooms.closeAll();
    expect(closed.sort()).toEqual(['/a', '/b']);
  });
});

describe('Rooms.reap', () => {
  function clocked(options: { maxLoaded?: number; idleTtlMs?: number } = {}) {
    const clock = { now: 0 };
    const closed: string[] = [];
    const rooms = new Rooms({
      keepAliveMs: 10 * 24 * 60 * 60 * 1000,
      now: () => clock.now,
      ...options,
      open: (key) => ({ close: () => closed.push(key.root) }),
    });
    return { rooms, clock, closed };
  }

  it('unloads unheld rooms unused for the TTL and never a held one', () => {
    const { rooms, clock, closed } = clocked({ idleTtlMs: 1000 });
    rooms.acquire({ root: '/idle' }).release();
    const held = rooms.acquire({ root: '/held' });
    clock.now = 999;
    expect(rooms.reap()).toEqual([]);
    clock.now = 5000;
    expect(rooms.reap()).toEqual([{ root: '/idle' }]);
    expect(closed).toEqual(['/idle']);
    expect(rooms.list().map((r) => r.root)).toEqual(['/held']);
    held.release();
    rooms.closeAll();
  });

  it('keeps at most maxLoaded rooms, the least recently used unheld ones going first', () => {
    const { rooms, clock, closed } = clocked({ maxLoaded: 2 });
    for (const root of ['/a', '/b', '/c', '/d']) {
      clock.now += 1;
      rooms.acquire({ root }).release();
    }
    clock.now += 1;
    rooms.acquire({ root: '/a' }).release();
    const held = rooms.acquire({ root: '/b' });
    expect(rooms.reap().map((k) => k.root)).toEqual(['/c', '/d']);
    expect(closed).toEqual(['/c', '/d']);
    held.release();
    rooms.closeAll();
  });
});
