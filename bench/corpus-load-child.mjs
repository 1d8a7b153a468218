// Child process: cold-load one corpus and report time and RSS (a fresh process per run, so nothing is warm but the page cache).
// bench/corpus.mjs starts it with the daemon's node flags (DAEMON_NODE_FLAGS), as a daemon would load.
import { loadCorpus } from '../dist/packs/decisions/corpus/corpus.js';

const [dir] = process.argv.slice(2);
const started = performance.now();
const corpus = loadCorpus({ workspaceRoot: dir, corpusDir: dir, watch: false });
const ms = performance.now() - started;
globalThis.gc?.();
const rss = process.memoryUsage().rss / 2 ** 20;
process.stdout.write(
  JSON.stringify({ ms, rss, decisions: corpus.decisions.length, problems: corpus.problems.length }),
);
