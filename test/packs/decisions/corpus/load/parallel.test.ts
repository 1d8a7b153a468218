import { spawnSync } from 'node:child_process';
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

  it('a loader under `node -e` gets its worker share (the worker does not inherit the -e script)', () => {
    // The worker inherited the parent's node flags: under `node -e` it ran that script again
    // instead of reporting, and the loader waited out its 60 s limit. 20 s here is a hang, not a pace.
    const script = `const { loadCorpus } = await import(${JSON.stringify(dist)});
const c = loadCorpus({ workspaceRoot: ${JSON.stringify(MIXED)}, corpusDir: 'docs/decisions', parallel: true, watch: false });
console.log(c.decisions.length);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(Number(run.stdout.trim())).toBeGreaterThan(0);
  }, 30_000);
});
