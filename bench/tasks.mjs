// Task throughput and tasks/get latency, in process, SQLite store vs memory store.
// Create-and-complete: TaskService.create + start with trivial work, until terminal.
// Usage: node bench/tasks.mjs   (needs `npm run build`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryTaskStore } from '../dist/store/memory-task-store.js';
import { SqliteTaskStore } from '../dist/store/sqlite-task-store.js';
import { TaskService } from '../dist/tasks/service.js';

const N = Number(process.env.TASKS_N ?? 5000);
const trivial = async () => ({ content: [{ type: 'text', text: 'ok' }] });

async function measure(label, store) {
  const service = new TaskService({ store, incarnation: `bench-${label}`, sweepIntervalMs: 0 });
  const ids = [];
  let done = 0;
  const started = performance.now();
  await new Promise((resolve) => {
    for (let i = 0; i < N; i++) {
      const task = service.create('bench-session-key', 'trivial');
      ids.push(task.id);
      service.start(task, { cancellation: 'abort' }, async (env) => {
        const r = await trivial(env);
        queueMicrotask(() => {
          if (++done === N) setImmediate(resolve);
        });
        return r;
      });
    }
  });
  await new Promise((r) => setImmediate(r));
  const seconds = (performance.now() - started) / 1000;
  const completed = ids.filter((id) => store.get(id, Date.now())?.status === 'completed').length;
  const samples = [];
  for (let i = 0; i < 20000; i++) {
    const id = ids[i % ids.length];
    const t0 = performance.now();
    service.detailed(service.get(id, 'bench-session-key'));
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const p = (q) => samples[Math.floor(q * (samples.length - 1))];
  service.close();
  store.close();
  return {
    label,
    tasksPerSecond: Math.round(N / seconds),
    completed,
    getP50Ms: +p(0.5).toFixed(4),
    getP99Ms: +p(0.99).toFixed(4),
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bench-tasks-'));
try {
  const sqlite = await measure('sqlite', new SqliteTaskStore({ file: path.join(dir, 'moor.db') }));
  const memory = await measure('memory', new MemoryTaskStore());
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
