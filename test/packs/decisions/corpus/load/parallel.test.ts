import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as CorpusModule from '../../../../../src/packs/decisions/corpus/corpus.js';
import { FIXTURES, MIXED } from '../helpers.js';

// The load worker is a compiled script; from sources there is none, so this runs against dist (npm test builds first).
const dist = fileURLToPath(new URL('../../../../../dist/packs/decisions/corpus/corpus.js', import.meta.url));
const hasDist = existsSync(dist);

describe.skipIf(!hasDist)('two-thread cold load (dist build)', () => {
  it('finds the compiled load worker where the loader looks for it', () => {
    expect(existsSync(path.join(path.dirname(dist), 'load/load-worker.js'))).toBe(true);
  });

  it('gives exactly the same corpus as one thread', async () => {
    const { loadCorpus } = (await import(dist)) as typeof CorpusModule;
    for (const [root, corpusDir] of [
      [MIXED, 'docs/decisions'],
      [path.join(FIXTURES, 'search'), '.'],
    ] as const) {
      const one = loadCorpus({ workspaceRoot: root, corpusDir, parallel: false });
      const two = loadCorpus({ workspaceRoot: root, corpusDir, parallel: true });
      const view = (c: typeof one) => ({
        decisions: c.decisions.map((d) => ({ ...d, body: d.body })),
        problems: c.problems,
        edges: c.edges,
        fingerprint: c.fingerprint,
        search: ['postgresql', 'cache', 'kubernets', 'events', 'zürich', 'the'].map((q) =>
          c.search(q, { limit: 50 }).hits.map((h) => [h.decision.path, h.score.toFixed(9), h.snippet]),
        ),
        governing: c.governing(['services/api/x.ts', 'infra/terraform/a.tf', 'services/events/b.ts']),
      });
      expect(view(two)).toEqual(view(one));
    }
  });
});
