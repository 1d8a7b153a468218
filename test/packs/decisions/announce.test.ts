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
  it('announces each file of a burst once, after the quiet period, and a list change for added or removed files', () => {
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
    expect(said).toEqual([]);
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

    // Removed for good by the end of the next burst: a list change, no update.
    announcer.note({ added: [], changed: ['a.md'], removed: [] });
    announcer.note({ added: [], changed: [], removed: ['a.md'] });
    timer.fire();
    expect(said).toEqual(['updated decision:///a.md', 'list resources']);
  });

  it('announces nothing once closed', () => {
    const timer = manualTimer();
    const said: string[] = [];
    const announcer = new ChangeAnnouncer({
      announce: { resourceUpdated: (uri) => said.push(uri), listChanged: () => said.push('list') },
      uriOf: (p) => p,
      timer,
    });
    announcer.note({ added: [], changed: ['a.md'], removed: [] });
    announcer.close();
    timer.fire();
    announcer.note({ added: ['b.md'], changed: [], removed: [] });
    timer.fire();
    expect(said).toEqual([]);
  });
});
