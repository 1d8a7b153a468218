/**
 * draft_decision numbering is atomic per decisions folder: drafts racing in
 * one process, and drafts from two processes at once, never share a number.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type DraftPlan, writeRecord } from '../../../src/packs/decisions/tools/draft-decision.js';
import { tempDir } from './corpus/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

// The other process runs the compiled module (no TypeScript loader in a child).
const dist = fileURLToPath(new URL('../../../dist/packs/decisions/tools/draft-decision.js', import.meta.url));

function folder(): string {
  const { dir, cleanup } = tempDir('moor-draft-num-');
  cleanups.push(cleanup);
  const f = path.join(dir, 'docs/decisions');
  fs.mkdirSync(f, { recursive: true });
  fs.writeFileSync(path.join(f, '0012-existing.md'), '# Existing\n');
  return f;
}

function numbersIn(f: string): number[] {
  return fs
    .readdirSync(f)
    .filter((n) => n.endsWith('.md'))
    .map((n) => Number(/^(\d+)/.exec(n)?.[1]));
}

describe('draft numbering', () => {
  it('gives 10 parallel drafts in one process 10 distinct numbers and leaves no claim behind', async () => {
    const f = folder();
    // Every draft planned from the same corpus view: all think 13 is next.
    const plan: DraftPlan = { format: 'madr', number: 13, width: 4, folder: f };
    const written = await Promise.all(
      Array.from({ length: 10 }, (_, i) => writeRecord(plan, `Parallel ${i}`, 'ctx', '2026-12-02')),
    );
    expect(new Set(written.map((w) => w.id)).size).toBe(10);
    expect(numbersIn(f).sort((a, b) => a - b)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);
    expect(fs.readdirSync(f).filter((n) => !n.endsWith('.md'))).toEqual([]);
  });

  it('gives drafts from two processes at once distinct numbers', async () => {
    expect(fs.existsSync(dist), 'npm run build first').toBe(true);
    const f = folder();
    const script = `
      const { writeRecord } = await import(${JSON.stringify(dist)});
      const plan = { format: 'madr', number: 13, width: 4, folder: ${JSON.stringify(f)} };
      // Both processes wait for the same go file so their drafts overlap.
      const fs = await import('node:fs');
      while (!fs.existsSync(${JSON.stringify(path.join(f, '..', 'go'))})) await new Promise((r) => setImmediate(r));
      const out = await Promise.all(Array.from({ length: 10 }, (_, i) => writeRecord(plan, 'P' + process.pid + ' ' + i, 'c', '2026-12-02')));
      process.stdout.write(JSON.stringify(out.map((o) => o.id)));
    `;
    const run = () =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
      });
    const both = [run(), run()];
    fs.writeFileSync(path.join(f, '..', 'go'), '');
    const ids = (await Promise.all(both)).flat();
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(new Set(numbersIn(f)).size).toBe(21);
  }, 30_000);
});
