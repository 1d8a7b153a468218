// In-process corpus benchmarks: cold load, search, governing paths, freshness,
// and the re-read-everything-per-call baseline (what the reference decision server does).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadCorpus } from '../dist/packs/decisions/corpus/corpus.js';
import { DAEMON_NODE_FLAGS } from '../dist/protocol/daemon-link.js';
import { reportGoal } from './goals.mjs';
import { corpus as generated, median, percentile, ROOT, rng, table } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

// The load a daemon does: its process runs with the V8 flags it is spawned with (a small young
// generation), which decide how much of the heap V8 keeps after the load. It serves once the load
// returns (`ms`) and searches from its own index once that is built (`searchMs`, RSS after it).
function coldLoad(dir) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      [...DAEMON_NODE_FLAGS, '--expose-gc', path.join(ROOT, 'bench/corpus-load-child.mjs'), dir],
      { encoding: 'utf8' },
    );
    runs.push(JSON.parse(out));
  }
  return {
    ms: median(runs.map((r) => r.ms)),
    searchMs: median(runs.map((r) => r.searchMs)),
    rss: median(runs.map((r) => r.rss)),
    decisions: runs[0].decisions,
    problems: runs[0].problems,
  };
}

function time(fn, iterations) {
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    fn(i);
    samples.push(performance.now() - t);
  }
  return samples;
}

function queriesFrom(manifest, n) {
  const random = rng(7);
  const titles = manifest.decisions.map((d) =>
    d.title
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 3),
  );
  const out = [];
  for (let i = 0; i < n; i++) {
    const words = titles[Math.floor(random() * titles.length)];
    const k = 1 + Math.floor(random() * Math.min(3, words.length));
    out.push(words.slice(0, k).join(' '));
  }
  // a prefix and a typo now and then
  out.push('kuber', 'postgre', 'replicaton', 'eventual consistncy');
  return out;
}

function filesFrom(manifest, n, seed) {
  const random = rng(seed);
  return Array.from({ length: n }, () => manifest.tree[Math.floor(random() * manifest.tree.length)]);
}

async function waitFor(check, timeoutMs = 2000) {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) return Number.NaN;
    await new Promise((r) => setImmediate(r));
  }
  return performance.now() - started;
}

export async function benchCorpus() {
  const loads = [];
  const ops = [];
  for (const count of [1000, 10000]) {
    const { dir, manifest } = generated(count);
    const load = coldLoad(dir);
    loads.push([count, load.decisions, load.problems, load.ms, load.searchMs, load.rss]);
    if (count === 10000) {
      reportGoal('load-10k-ms', `${(load.ms / 1000).toFixed(2)} s`, load.ms <= 700);
      reportGoal('load-10k-search-ms', `${(load.searchMs / 1000).toFixed(2)} s`, null);
      reportGoal('load-10k-rss', `${load.rss.toFixed(0)} MiB`, load.rss <= 100);
    }

    // As the daemon's: its operations are timed once its search index is built.
    const corpus = loadCorpus({ workspaceRoot: dir, corpusDir: dir, watch: true, searchIndex: 'background' });
    await corpus.searchReady();
    const queries = queriesFrom(manifest, 300);
    const search = time((i) => corpus.search(queries[i % queries.length], { offset: 0, limit: 10 }), 2000);
    const fileSets = Array.from({ length: 50 }, (_, i) => filesFrom(manifest, 50, i + 1));
    const governing = time((i) => corpus.governing(fileSets[i % fileSets.length]), 500);
    const resolve = time(
      (i) => corpus.resolve(manifest.decisions[i % manifest.decisions.length].number),
      2000,
    );

    // Freshness: rewrite one file with a new unique word and time until search finds it.
    const pickups = [];
    for (let i = 0; i < 5; i++) {
      const target = path.join(dir, manifest.decisions[100 + i].path);
      const original = fs.readFileSync(target, 'utf8');
      const marker = `zzfresh${count}x${i}x${Date.now().toString(36)}`;
      const t = performance.now();
      fs.writeFileSync(target, `${original}\n\n${marker}\n`);
      const waited = await waitFor(() => corpus.search(marker, { offset: 0, limit: 1 }).total > 0);
      pickups.push(Number.isNaN(waited) ? Number.NaN : performance.now() - t);
      fs.writeFileSync(target, original);
      await waitFor(() => corpus.search(marker, { offset: 0, limit: 1 }).total === 0);
    }
    corpus.close();

    // Baseline: what a server that re-reads and re-parses the corpus on every call pays.
    const baselineRuns = count >= 10000 ? 3 : 5;
    const baseline = time((i) => {
      const fresh = loadCorpus({ workspaceRoot: dir, corpusDir: dir, watch: false });
      fresh.search(queries[i], { offset: 0, limit: 10 });
      fresh.close();
    }, baselineRuns);

    const searchP50 = median(search);
    ops.push(
      [count, 'search_decisions (index)', searchP50, percentile(search, 99), '1.00×'],
      [
        count,
        'search_decisions (re-read baseline)',
        median(baseline),
        percentile(baseline, 99),
        `${(median(baseline) / searchP50).toFixed(0)}× slower`,
      ],
      [count, 'get_decision_context, 50 files', median(governing), percentile(governing, 99), ''],
      [count, 'resolve a reference', median(resolve), percentile(resolve, 99), ''],
      [count, 'pick up one changed file (write → visible)', median(pickups), Math.max(...pickups), ''],
    );
  }
  table(
    `Corpus cold load and index (fresh process, median of ${RUNS})`,
    ['records', 'decisions', 'problems', 'serving ms', 'search index ms', 'RSS MiB (index built)'],
    loads,
  );
  table('Corpus operations in process (ms)', ['records', 'operation', 'p50', 'p99/max', 'vs index'], ops);
}
