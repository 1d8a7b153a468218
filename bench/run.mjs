// `npm run bench`: every benchmark, printed as tables. Numbers are medians of
// several runs; ratios compare against a baseline measured in the same run.
import os from 'node:os';
import { benchCli } from './cli.mjs';
import { benchCorpus } from './corpus.mjs';
import { printGoals } from './goals.mjs';
import { benchProxy } from './proxy.mjs';
import { benchStdio } from './stdio.mjs';

console.log(
  `# moor benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const only = process.argv[2];
if (!only || only === 'corpus') await benchCorpus();
if (!only || only === 'stdio') await benchStdio();
if (!only || only === 'proxy') await benchProxy();
if (!only || only === 'http') await (await import('./http.mjs')).benchHttp();
if (!only || only === 'tasks') await (await import('./tasks.mjs')).benchTasks();
if (!only || only === 'scale') await (await import('./scale.mjs')).benchScale();
if (!only || only === 'cli') await benchCli();
if (!only || only === 'events') await (await import('./events.mjs')).benchEvents();
if (!only || only === 'sessions') await (await import('./sessions.mjs')).benchSessions();
printGoals();
