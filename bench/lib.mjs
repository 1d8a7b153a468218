// Shared bench helpers: corpora, statistics, tables. Benchmarks print; they never assert.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
export const BENCH_DIR = path.join(ROOT, '.bench');
const GEN = path.resolve(ROOT, '../shared/tools/gen-corpus.mjs');

/** A generated corpus (cached in .bench/): { dir, manifest }. */
export function corpus(count) {
  const dir = path.join(BENCH_DIR, `corpus-${count}`);
  const manifestPath = path.join(BENCH_DIR, `corpus-${count}.json`);
  if (!fs.existsSync(manifestPath)) {
    fs.mkdirSync(BENCH_DIR, { recursive: true });
    execFileSync(
      process.execPath,
      [GEN, '--out', dir, '--count', String(count), '--seed', '1', '--manifest', manifestPath, '--force'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  return { dir, manifest: JSON.parse(fs.readFileSync(manifestPath, 'utf8')) };
}

/**
 * Waits (up to 10 s) until a daemon started in `stateDir` listens: a cold `moor stdio` may answer
 * its first requests before the daemon it started is up, and `daemon stop` finds no daemon until then.
 */
export function awaitDaemonSocket(stateDir) {
  const deadline = Date.now() + 10_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!fs.existsSync(path.join(stateDir, 'daemon.sock')) && Date.now() < deadline)
    Atomics.wait(pause, 0, 0, 10);
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const median = (values) => percentile(values, 50);

export function fmt(value, digits = 3) {
  if (value === undefined || Number.isNaN(value)) return '-';
  if (typeof value === 'string') return value;
  return value >= 100 ? value.toFixed(0) : value.toPrecision(digits);
}

/** Prints a markdown table: rows are arrays aligned with headers. */
export function table(title, headers, rows) {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(cells[0]));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
}

/** Deterministic pseudo-random generator so every run asks the same questions. */
export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The 2026-07-28 envelope every bench request carries. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A line-delimited JSON-RPC client over a spawned node process, one request at a time or many. */
export class LineClient {
  constructor(args, env = {}) {
    this.child = spawn(process.execPath, args, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, ...env },
    });
    this.waiting = new Map();
    this.id = 0;
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line);
      const resolve = this.waiting.get(msg.id);
      if (resolve) {
        this.waiting.delete(msg.id);
        resolve(msg);
      }
    });
  }
  request(method, params = {}) {
    const id = ++this.id;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } })}\n`,
      );
    });
  }
  async close() {
    this.child.stdin.end();
    if (this.child.exitCode === null) await new Promise((r) => this.child.once('exit', r));
  }
}
