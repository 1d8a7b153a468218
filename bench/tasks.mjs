// Task throughput and tasks/get latency, in process: SQLite store vs memory store (and, from
// bench/scale.mjs, PostgreSQL). Create-and-complete: TaskService.create (committed) + start with
// trivial work, until every task is terminal in the store.
// Usage: node bench/tasks.mjs   (needs `npm run build`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryTaskStore } from '../dist/store/memory-task-store.js';
import { SqliteTaskStore } from '../dist/store/sqlite-task-store.js';
import { TaskService } from '../dist/tasks/service.js';

const N = Number(process.env.TASKS_N ?? 5000);
/** How many creates are in flight at once (a daemon serving that many concurrent tools/calls). */
const CONCURRENCY = Number(process.env.TASKS_CONCURRENCY ?? 64);
const trivial = async () => ({ content: [{ type: 'text', text: 'ok' }] });

export async function measureTasks(label, store, n = N, gets = 20000) {
  const service = new TaskService({ store, incarnation: `bench-${label}`, sweepIntervalMs: 0 });
  await service.ready;
  const ids = [];
  let done = 0;
  let resolveAll;
  const allDone = new Promise((r) => {
    resolveAll = r;
  });
  const started = performance.now();
  let next = 0;
  const creator = async () => {
    while (next < n) {
      next++;
      const task = await service.create('bench-session-key', 'trivial');
      ids.push(task.id);
      service.start(task, { cancellation: 'abort' }, async (env) => {
        const r = await trivial(env);
        queueMicrotask(() => {
          if (++done === n) setImmediate(resolveAll);
        });
        return r;
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, creator));
  await allDone;
  await service.list('nobody'); // commits the last group of completions
  const seconds = (performance.now() - started) / 1000;
  let completed = 0;
  for (const id of ids) if ((await store.get(id, Date.now()))?.status === 'completed') completed++;
  const samples = [];
  for (let i = 0; i < gets; i++) {
    const id = ids[i % ids.length];
    const t0 = performance.now();
    service.detailed(await service.get(id, 'bench-session-key'));
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const p = (q) => samples[Math.floor(q * (samples.length - 1))];
  await service.close();
  await store.close();
  return {
    label,
    tasksPerSecond: Math.round(n / seconds),
    completed,
    getP50Ms: +p(0.5).toFixed(4),
    getP99Ms: +p(0.99).toFixed(4),
  };
}

export async function benchTasks() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bench-tasks-'));
  try {
    const sqlite = await measureTasks('sqlite', new SqliteTaskStore({ file: path.join(dir, 'moor.db') }));
    const memory = await measureTasks('memory', new MemoryTaskStore());
    const result = {
      tasks: N,
      sqlite,
      memory,
      throughputRatioMemoryOverSqlite: +(memory.tasksPerSecond / sqlite.tasksPerSecond).toFixed(2),
      targets: { sqliteTasksPerSecond: '>= 2000', getP50Ms: '<= 0.3' },
      pass: sqlite.tasksPerSecond >= 2000 && sqlite.getP50Ms <= 0.3 && sqlite.completed === N,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) await benchTasks();
