// Child process: cold-load one corpus as a daemon does (watched, search index built in the
// background) and report times and RSS; a fresh process per run, so nothing is warm but the page
// cache. bench/corpus.mjs starts it with the daemon's node flags (DAEMON_NODE_FLAGS).
// `ms`: until the load returns, when the corpus answers show, context, governing and check;
// `searchMs`: until the search index is complete. RSS is taken after that, with the index in it.
import { loadCorpus } from '../dist/packs/decisions/corpus/corpus.js';

const [dir] = process.argv.slice(2);
const started = performance.now();
const corpus = loadCorpus({ workspaceRoot: dir, corpusDir: dir, watch: true, searchIndex: 'background' });
const ms = performance.now() - started;
await corpus.searchReady();
const searchMs = performance.now() - started;
// Twice, as the daemon's idle collector does: right after the build, one collection leaves the
// postings buffers the index merged away (20-30 MiB of array buffers) counted, and a second frees
// them; read after one, RSS swung by that much from run to run, with the old eager load as well.
globalThis.gc?.();
globalThis.gc?.();
const rss = process.memoryUsage().rss / 2 ** 20;
corpus.close();
process.stdout.write(
  JSON.stringify({ ms, searchMs, rss, decisions: corpus.decisions.length, problems: corpus.problems.length }),
);
