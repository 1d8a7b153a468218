/**
 * One-shot `moor decisions …` keeps its parses in the state dir's cache/
 * (src/packs/decisions/corpus/load/parsed-cache.ts). The built binary on
 * every fixture corpus and this repository's own log (search included, whose
 * postings are kept too: search-cache.ts): each command prints
 * the same bytes and exits the same with the cache off, on a first run (that
 * writes it) and on a second (that reads it). The second run really reads
 * it (an entry planted for a file is what is printed while the file's stamp
 * is unchanged, and is ignored once the file changes), and a corrupt,
 * foreign-build or wrong-shape cache is ignored and rewritten, never fatal.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function moor(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MOOR_BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/corpora');
const WORKSPACES = [
  ...fs.readdirSync(FIXTURES).map((name) => path.join(FIXTURES, name)),
  path.join(REPO_ROOT, 'test/fixtures/e2e/repo'),
  REPO_ROOT,
];

const COMMANDS: string[][] = [
  ['search', 'storage'],
  ['search', 'decision', '--json'],
  ['show', '1', '--json'],
  ['context', 'src/a.ts'],
  ['superseded'],
  ['check', '--json'],
  ['index'],
];

/** Runs the command list on one workspace, two at a time. */
async function runAll(workspace: string, env: Record<string, string>): Promise<Run[]> {
  const runs: Run[] = new Array(COMMANDS.length);
  let next = 0;
  const lane = async () => {
    while (next < COMMANDS.length) {
      const i = next++;
      runs[i] = await moor(['decisions', ...(COMMANDS[i] as string[]), '-w', workspace], env);
    }
  };
  await Promise.all([lane(), lane()]);
  return runs;
}

function cacheFiles(state: string): string[] {
  const dir = path.join(state, 'cache');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

/** The parsed-record caches only (the folder also holds search postings and the app's compiled code). */
function recordCacheFiles(state: string): string[] {
  return cacheFiles(state).filter((file) => path.basename(file).startsWith('records-'));
}

describe('the one-shot parse cache', () => {
  it('prints the same bytes with it off, when it is written and when it is read, on every corpus', async () => {
    let withLogs = 0;
    for (const workspace of WORKSPACES) {
      const state = tempDir('moor-cache-state-');
      fs.chmodSync(state, 0o700);
      const off = await runAll(workspace, { MOOR_STATE_DIR: state, MOOR_RECORD_CACHE: 'off' });
      expect(cacheFiles(state), workspace).toEqual([]);
      const writing = await runAll(workspace, { MOOR_STATE_DIR: state });
      const reading = await runAll(workspace, { MOOR_STATE_DIR: state });
      for (const [i, baseline] of off.entries()) {
        const what = `${path.relative(REPO_ROOT, workspace) || '.'}: decisions ${COMMANDS[i]?.join(' ')}`;
        expect(writing[i], what).toEqual(baseline);
        expect(reading[i], what).toEqual(baseline);
      }
      // A workspace with records (decision 1 was shown): the first run with the cache on wrote it.
      if (off[2]?.code === 0) {
        withLogs += 1;
        expect(cacheFiles(state).length, workspace).toBeGreaterThan(0);
      }
    }
    // Most of them: the comparison above covered cache reads, not only runs with nothing to cache.
    expect(withLogs).toBeGreaterThanOrEqual(6);
  }, 240_000);

  it('is what a second run reads while a file is unchanged, and is not once the file changed', async () => {
    const workspace = tempDir('moor-cache-ws-');
    fs.cpSync(path.join(REPO_ROOT, 'test/fixtures/e2e/repo'), workspace, { recursive: true });
    const state = tempDir('moor-cache-state-');
    fs.chmodSync(state, 0o700);
    const env = { MOOR_STATE_DIR: state };
    const show = ['decisions', 'show', '3', '--json', '-w', workspace];
    const first = JSON.parse((await moor(show, env)).stdout) as { title: string };
    const [file] = recordCacheFiles(state);
    expect(file).toBeDefined();
    expect((fs.statSync(file as string).mode & 0o777).toString(8)).toBe('600');
    // Plant a different title in the cached parse of record 3.
    const cache = JSON.parse(fs.readFileSync(file as string, 'utf8')) as {
      records: Record<string, { decision: { title: string } }>;
    };
    const key = Object.keys(cache.records).find((k) => k.startsWith('0003-')) as string;
    (cache.records[key] as { decision: { title: string } }).decision.title = 'Planted in the cache';
    fs.writeFileSync(file as string, JSON.stringify(cache));
    expect(JSON.parse((await moor(show, env)).stdout).title).toBe('Planted in the cache');
    // The file changes (its stamp with it): parsed again, the plant is gone.
    const record = path.join(workspace, 'docs/decisions', key);
    fs.appendFileSync(record, '\nOne more line.\n');
    expect(JSON.parse((await moor(show, env)).stdout).title).toBe(first.title);
  });

  it('ignores a corrupt, foreign or malformed cache and writes a good one in its place', async () => {
    const workspace = path.join(REPO_ROOT, 'test/fixtures/e2e/repo');
    const state = tempDir('moor-cache-state-');
    fs.chmodSync(state, 0o700);
    const env = { MOOR_STATE_DIR: state };
    const show = ['decisions', 'show', '3', '--json', '-w', workspace];
    const baseline = await moor(show, { ...env, MOOR_RECORD_CACHE: 'off' });
    await moor(show, env);
    const [file] = recordCacheFiles(state) as [string];
    const good = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    type Entry = { decision: Record<string, unknown> | null; problems: unknown[] };
    /** The good cache with one entry changed by `change`. */
    const withOneEntry = (change: (entry: Entry) => void) => {
      const copy = structuredClone(good) as { records: Record<string, Entry> };
      // The record `show 3` prints: a cache trusted without its checks would show what was changed.
      const entry = Object.values(copy.records).find((e) => e.decision?.number === 3) as Entry;
      change(entry);
      return JSON.stringify(copy);
    };
    const wrongShape = structuredClone(good) as { records: Record<string, { decision: unknown }> };
    for (const entry of Object.values(wrongShape.records)) entry.decision = { title: 42 };
    for (const broken of [
      '{"format":1,',
      '\u0000\u0001 not json',
      JSON.stringify({ ...good, build: 'another-build' }),
      JSON.stringify({ ...good, corpusDir: '/somewhere/else' }),
      JSON.stringify(wrongShape),
      withOneEntry((e) => {
        (e.decision as Record<string, unknown>).deciders = ['Ada', 7];
      }),
      withOneEntry((e) => {
        e.problems = [{ path: 'x.md' }];
      }),
      withOneEntry((e) => {
        (e.decision as Record<string, unknown>).links = { supersedes: [] };
      }),
      JSON.stringify([1, 2, 3]),
    ]) {
      fs.writeFileSync(file, broken);
      const run = await moor(show, env);
      expect(run, broken.slice(0, 40)).toEqual(baseline);
      // Rewritten as this build's own.
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).build).toBe(good.build);
    }
  });

  it("keeps a record's links and review date for the next check, and looks up link targets every time", async () => {
    const workspace = tempDir('moor-cache-check-');
    const decisions = path.join(workspace, 'docs/decisions');
    fs.mkdirSync(decisions, { recursive: true });
    fs.writeFileSync(
      path.join(decisions, '0001-use-a-queue.md'),
      '# 1. Use a queue\n\nStatus: accepted\n\nReview by: 2000-01-31\n\nSee [the worker](../../src/worker.ts).\n',
    );
    const state = tempDir('moor-cache-state-');
    fs.chmodSync(state, 0o700);
    const env = { MOOR_STATE_DIR: state };
    const check = ['decisions', 'check', '--json', '-w', workspace];
    const off = () => moor(check, { ...env, MOOR_RECORD_CACHE: 'off' });
    const baseline = await off();
    expect(baseline.stdout).toContain('links to ../../src/worker.ts');
    expect(baseline.stdout).toContain('was due for review on 2000-01-31');
    expect(await moor(check, env)).toEqual(baseline);
    const [file] = recordCacheFiles(state) as [string];
    type Stored = { records: Record<string, { memo?: Record<string, { links: { target: string }[] }> }> };
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Stored;
    const entry = stored.records['0001-use-a-queue.md'];
    expect(entry?.memo?.['check-marks']?.links.map((l) => l.target)).toEqual(['../../src/worker.ts']);
    // What the memo says is what the next check reports while the record is unchanged.
    const planted = structuredClone(stored);
    (planted.records['0001-use-a-queue.md']?.memo?.['check-marks']?.links[0] as { target: string }).target =
      'planted.ts';
    fs.writeFileSync(file, JSON.stringify(planted));
    expect((await moor(check, env)).stdout).toContain('links to planted.ts');
    // A memo of the wrong shape is not used: the record is read again and the memo replaced.
    const malformed = structuredClone(stored);
    (malformed.records['0001-use-a-queue.md'] as { memo: unknown }).memo = { 'check-marks': { links: 'x' } };
    fs.writeFileSync(file, JSON.stringify(malformed));
    expect(await moor(check, env)).toEqual(baseline);
    expect(await moor(check, env)).toEqual(baseline);
    // The link's target appears: the remembered link is looked up again, and no longer broken.
    fs.mkdirSync(path.join(workspace, 'src'));
    fs.writeFileSync(path.join(workspace, 'src/worker.ts'), 'export {};\n');
    const fixed = await moor(check, env);
    expect(fixed).toEqual(await off());
    expect(fixed.stdout).not.toContain('links to');
  });
});
