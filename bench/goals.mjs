// The figures moor holds itself to, each with its goal: a bench that measures one reports it
// here, and `npm run bench` ends with one table of them all, met or not met. A figure whose
// bench did not run in this invocation is listed as not measured, so a partial run never
// reads as a pass.
import { fmt, table } from './lib.mjs';

/** Every figure with a goal, in the order the table prints them. */
const FIGURES = [
  [
    'cli-100',
    'one-shot `moor decisions …`, 100 records, no daemon (worst of search/show/context/superseded/check)',
    '≤ 1.5× node -e 0',
  ],
  ['cli-1k', 'one-shot `moor decisions …`, 1k records, no daemon (worst)', '≤ 2× node -e 0'],
  [
    'cli-100-daemon',
    'one-shot `moor decisions …`, 100 records, a daemon running (worst)',
    '≤ 1.5× node -e 0',
  ],
  ['cli-1k-daemon', 'one-shot `moor decisions …`, 1k records, a daemon running (worst)', '≤ 2× node -e 0'],
  [
    'events-10k',
    'file write → resources/updated at the client, 10k corpus, p50 (worse of: index building, built)',
    '≤ 30 ms',
  ],
  ['http-get', 'HTTP c=32 modern tools/call get_decision, metrics on', '≥ 0.85× raw node:http'],
  ['metrics-echo', 'metrics on vs off, modern echo (throughput lost)', '≤ 3%'],
  ['metrics-get', 'metrics on vs off, modern get_decision (throughput lost)', '≤ 3%'],
  ['cold-start', '`moor stdio`, no daemon → first tools/list', '≤ 400 ms'],
  ['cold-start-ratio', '`moor stdio`, no daemon → first tools/list', '≤ 2.5× node -e 0'],
  ['load-10k-ms', 'corpus cold load, 10k records, serving (search index still building)', '≤ 0.7 s'],
  ['load-10k-search-ms', 'corpus cold load, 10k records, search index complete', '(reported)'],
  ['load-10k-rss', 'corpus cold load, 10k records, RSS with the search index complete', '≤ 100 MiB'],
];

const measured = new Map();

/**
 * Records a figure: `value` is what was measured, `shown` how to print it, `met` whether it
 * is within its goal, null for a figure only reported (no goal to meet). Unknown ids are a
 * bench bug, so they throw.
 */
export function reportGoal(id, shown, met) {
  if (!FIGURES.some(([known]) => known === id)) throw new Error(`bench goal ${id} is not declared`);
  measured.set(id, { shown: typeof shown === 'number' ? fmt(shown) : shown, met });
}

export function printGoals() {
  const rows = FIGURES.map(([id, figure, goal]) => {
    const m = measured.get(id);
    const met = m === undefined ? '-' : m.met === null ? 'reported' : m.met ? 'met' : 'NOT met';
    return [figure, m ? m.shown : '(not measured in this run)', goal, met];
  });
  table('Goals: each figure against its goal (this run)', ['figure', 'now', 'goal', 'met'], rows);
}
