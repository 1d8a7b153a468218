import { describe, expect, it } from 'vitest';
import { type AnnounceTimer, ChangeAnnouncer } from '../../../src/packs/decisions/announce.js';

/** A timer the test fires by hand. */
function manualTimer(): AnnounceTimer & { fire(): void; pending(): number } {
  const waiting = new Map<number, () => void>();
  let next = 0;
  return {
    set: (fn) => {
      waiting.set(++next, fn);
      return next;
    },
    clear: (handle) => waiting.delete(handle as number),
    fire: () => {
      for (const [id, fn] of [...waiting]) {
        waiting.delete(id);
        fn();
      }
    },
    pending: () => waiting.size,
  };
}

describe('ChangeAnnouncer', () => {
  it('announces each changed file of a burst once, and a list change for added or removed files after the quiet period', () => {
    const timer = manualTimer();
    const said: string[] = [];
    const announcer = new ChangeAnnouncer({
      announce: {
        resourceUpdated: (uri) => said.push(`updated ${uri}`),
        listChanged: (l) => said.push(`list ${l}`),
      },
      uriOf: (p) => `decision:///${p}`,
      timer,
    });
    announcer.note({ added: [], changed: ['a.md'], removed: [] });
    announcer.note({ added: [], changed: ['a.md', 'b.md'], removed: [] });
    announcer.note({ added: ['c.md'], changed: ['a.md'], removed: [] });
    expect(said).toEqual(['updated decision:///a.md', 'updated decision:///b.md']);
    expect(timer.pending()).toBe(1);
    timer.fire();
    expect(said).toEqual(['updated decision:///a.md', 'updated decision:///b.md', 'list resources']);
    timer.fire();
    expect(said).toHaveLength(3);
  });

  it('a file emptied for a moment within a burst (removed, then added again) is one update and no list change', () => {
    const timer = manualTimer();
    const said: string[] = [];
    const announcer = new ChangeAnnouncer({
      announce: {
        resourceUpdated: (uri) => said.push(`updated ${uri}`),
        listChanged: (l) => said.push(`list ${l}`),
      },
      uriOf: (p) => `decision:///${p}`,
      timer,
    });
    for (let i = 0; i < 20; i++) {
      announcer.note({ added: [], changed: [], removed: ['a.md'] });
      announcer.note({ added: ['a.md'], changed: [], removed: [] });
    }
    // A file that came and went within the burst is no change either.
    announcer.note({ added: ['tmp.md'], changed: [], removed: [] });
    announcer.note({ added: [], changed: [], removed: ['tmp.md'] });
    timer.fire();
    expect(said).toEqual(['updated decision:///a.md']);

    // Removed for good by the end of the next burst: a list change at its end.
    announcer.note({ added: [], changed: ['a.md'], removed: [] });
    announcer.note({ added: [], changed: [], removed: ['a.md'] });
    timer.fire();
    expect(said).toEqual(['updated decision:///a.md', 'updated decision:///a.md', 'list resources']);
  });

  it('a single save is announced on its first refresh, before any quiet period; the same text again is no second update', () => {
    const timer = manualTimer();
    const said: string[] = [];
    const announcer = new ChangeAnnouncer({
      announce: {
        resourceUpdated: (uri) => said.push(`updated ${uri}`),
        listChanged: (l) => said.push(`list ${l}`),
      },
      uriOf: (p) => `decision:///${p}`,
      timer,
    });
    const v = (text: string) => new Map([['a.md', text]]);
    announcer.note({ added: [], changed: ['a.md'], removed: [], versions: v('one') });
    expect(said).toEqual(['updated decision:///a.md']);
    // The rest of an editor's save (rename, chmod, the same text written again): nothing more.
    announcer.note({ added: [], changed: ['a.md'], removed: [], versions: v('one') });
    announcer.note({ added: [], changed: [], removed: ['a.md'] });
    announcer.note({ added: ['a.md'], changed: [], removed: [], versions: v('one') });
    timer.fire();
    expect(said).toEqual(['updated decision:///a.md']);

    // A burst whose first refresh found the file empty waits for its end; then one update.
    announcer.note({ added: [], changed: [], removed: ['a.md'] });
    expect(said).toHaveLength(1);
    announcer.note({ added: ['a.md'], changed: [], removed: [], versions: v('two') });
    expect(said).toEqual(['updated decision:///a.md', 'updated decision:///a.md']);
    timer.fire();
    expect(said).toHaveLength(2);

    // Other text read after the leading announcement: one more update at the burst's end, not before.
    announcer.note({ added: [], changed: ['a.md'], removed: [], versions: v('three') });
    announcer.note({ added: [], changed: ['a.md'], removed: [], versions: v('four') });
    announcer.note({ added: [], changed: ['a.md'], removed: [], versions: v('five') });
    expect(said).toHaveLength(3);
    timer.fire();
    expect(said).toHaveLength(4);
    expect(said.every((s) => s === 'updated decision:///a.md')).toBe(true);
  });

  it('announces nothing once closed', () => {
    const timer = manualTimer();
    const said: string[] = [];
    const announcer = new ChangeAnnouncer({
      announce: { resourceUpdated: (uri) => said.push(uri), listChanged: () => said.push('list') },
      uriOf: (p) => p,
      timer,
    });
    announcer.note({ added: ['a.md'], changed: [], removed: [] });
    announcer.close();
    timer.fire();
    announcer.note({ added: ['b.md'], changed: ['c.md'], removed: [] });
    timer.fire();
    expect(said).toEqual([]);
  });
});

/** An announcer with a 100 ms quiet period, a 1 s hold, a hand-fired timer and a hand-set clock. */
function setup() {
  const timer = manualTimer();
  let now = 0;
  const said: string[] = [];
  const announcer = new ChangeAnnouncer({
    announce: {
      resourceUpdated: (uri) => said.push(`updated ${uri}`),
      listChanged: (l) => said.push(`list ${l}`),
    },
    uriOf: (p) => `decision:///${p}`,
    timer,
    debounceMs: 100,
    unreadableHoldMs: 1000,
    clock: () => now,
  });
  return { timer, said, announcer, advance: (ms: number) => (now += ms) };
}

describe('ChangeAnnouncer, a file caught between truncate and write', () => {
  it('holds the burst open past its quiet period, so the write that follows is one update and the list change comes after it', () => {
    const { timer, said, announcer, advance } = setup();
    // The refresh saw the subscribed file empty (still there, no decision) and a new record beside it.
    announcer.note({ added: ['m.md'], changed: [], removed: ['a.md'], unreadable: ['a.md'] });
    advance(100);
    timer.fire();
    expect(said).toEqual([]);
    expect(timer.pending()).toBe(1);
    // The write lands in a later refresh, after the quiet period.
    announcer.note({ added: ['a.md'], changed: [], removed: [], versions: new Map([['a.md', 'v2']]) });
    expect(said).toEqual(['updated decision:///a.md']);
    advance(100);
    timer.fire();
    expect(said).toEqual(['updated decision:///a.md', 'list resources']);
    expect(timer.pending()).toBe(0);
  });

  it('settles a file that stays unreadable once the hold is over: then it is a change of the list', () => {
    const { timer, said, announcer, advance } = setup();
    announcer.note({ added: [], changed: [], removed: ['a.md'], unreadable: ['a.md'] });
    // Quiet at 100 ms; held from then for 1000 ms.
    for (let i = 0; i < 10; i++) {
      advance(100);
      timer.fire();
      expect(said).toEqual([]);
    }
    advance(100);
    timer.fire();
    expect(said).toEqual(['list resources']);
    expect(timer.pending()).toBe(0);
  });

  it('does not hold a burst for a file that is really gone', () => {
    const { timer, said, announcer, advance } = setup();
    announcer.note({ added: [], changed: [], removed: ['a.md'], unreadable: [] });
    advance(100);
    timer.fire();
    expect(said).toEqual(['list resources']);
  });
});

describe('ChangeAnnouncer, a list read while a burst is open', () => {
  it('a record gone and back within one burst is a list change when the list was read while it was gone', () => {
    const { timer, said, announcer } = setup();
    announcer.note({ added: [], changed: [], removed: ['marker.md'] });
    announcer.listed();
    announcer.note({ added: ['marker.md'], changed: [], removed: [] });
    timer.fire();
    // Rewritten (there at both ends) and, for the reader, also a change of the list.
    expect(said).toEqual(['updated decision:///marker.md', 'list resources']);
    said.length = 0;

    // Read before it went and after it came back: the reader's list is the list, so nothing to tell.
    announcer.listed();
    announcer.note({ added: [], changed: [], removed: ['marker.md'] });
    announcer.note({ added: ['marker.md'], changed: [], removed: [] });
    announcer.listed();
    timer.fire();
    expect(said).toEqual(['updated decision:///marker.md']);
    said.length = 0;

    // Added, read, then removed: the reader saw one that is gone now.
    announcer.note({ added: ['tmp.md'], changed: [], removed: [] });
    announcer.listed();
    announcer.note({ added: [], changed: [], removed: ['tmp.md'] });
    timer.fire();
    expect(said).toEqual(['list resources']);
  });

  it('a record added and then read within one burst is still a list change for those who did not read it', () => {
    const { timer, said, announcer } = setup();
    announcer.note({ added: ['new.md'], changed: [], removed: [] });
    announcer.listed();
    timer.fire();
    expect(said).toEqual(['list resources']);
  });
});
