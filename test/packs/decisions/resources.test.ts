/**
 * The decisions' resource list, read while a burst of changes is still
 * gathering: a record removed and written back within one burst is no change
 * to those who listed before it, but one to whoever listed while it was gone.
 * A real corpus folder, refreshed by hand; the quiet period is a timer the
 * test fires.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnnounceTimer } from '../../../src/packs/decisions/announce.js';
import { decisionResources } from '../../../src/packs/decisions/resources.js';
import { type DecisionsState, openDecisions } from '../../../src/packs/decisions/state.js';
import { tempDir } from './corpus/helpers.js';
import { madr } from './tools/helpers.js';

function handTimer(): AnnounceTimer & { fire(): void } {
  let waiting: (() => void) | undefined;
  return {
    set: (fn) => {
      waiting = fn;
      return 1;
    },
    clear: () => {
      waiting = undefined;
    },
    fire: () => {
      const fn = waiting;
      waiting = undefined;
      fn?.();
    },
  };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function corpus(): {
  state: DecisionsState & { kind: 'loaded' };
  dir: string;
  said: string[];
  timer: ReturnType<typeof handTimer>;
} {
  const { dir: root, cleanup } = tempDir('moor-resources-');
  cleanups.push(cleanup);
  const dir = path.join(root, 'docs/decisions');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '0001-first.md'), madr('First', { status: 'accepted' }));
  writeFileSync(path.join(dir, '0009-marker.md'), madr('Marker', { status: 'accepted' }));
  const said: string[] = [];
  const timer = handTimer();
  const state = openDecisions(
    root,
    { watch: false, announceTimer: timer },
    {
      resourceUpdated: (uri) => said.push(`updated ${uri}`),
      listChanged: (list) => said.push(`list ${list}`),
    },
  );
  if (state.kind !== 'loaded') throw new Error('expected the corpus to load');
  cleanups.push(() => state.corpus.close());
  return { state, dir, said, timer };
}

const uris = (state: DecisionsState) => decisionResources.list(state).map((r) => r.uri);

describe('decision resources listed in the middle of a burst', () => {
  it('a reader who listed while a record was gone hears the list change when it is back', () => {
    const { state, dir, said, timer } = corpus();
    const marker = path.join(dir, '0009-marker.md');
    rmSync(marker);
    state.corpus.refresh();
    expect(uris(state)).toEqual(['decision:///0001-first.md']);
    writeFileSync(marker, madr('Marker', { status: 'accepted' }));
    state.corpus.refresh();
    timer.fire();
    expect(said).toEqual(['updated decision:///0009-marker.md', 'list resources']);
  });

  it('a record gone and back with no list read between is no change of the list', () => {
    const { state, dir, said, timer } = corpus();
    expect(uris(state)).toEqual(['decision:///0001-first.md', 'decision:///0009-marker.md']);
    const marker = path.join(dir, '0009-marker.md');
    rmSync(marker);
    state.corpus.refresh();
    writeFileSync(marker, madr('Marker', { status: 'accepted' }));
    state.corpus.refresh();
    timer.fire();
    // Written again: an update of the record, and the list as it was.
    expect(said).toEqual(['updated decision:///0009-marker.md']);
  });
});
