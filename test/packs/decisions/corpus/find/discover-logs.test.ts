/**
 * How a repository with several decision logs is recognised: only a root
 * without a decision folder of its own is searched for package logs (one or
 * two levels down, by the root's rules, `.adr-dir` included), log names are
 * the package folders' names made unique by path, and a root `moor.json`
 * may list the folders instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDecisions } from '../../../../../src/packs/decisions/state.js';
import { tempDir } from '../helpers.js';

const RECORD = '# Use a thing\n\n- Status: accepted\n\nBody.\n';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function repo(files: Record<string, string>): string {
  const { dir, cleanup } = tempDir('moor-logs-');
  cleanups.push(cleanup);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function logsOf(root: string): Array<[string, string]> | 'single' | string {
  const state = openDecisions(root, { watch: false });
  cleanups.push(() => {
    if (state.kind === 'loaded') state.corpus.close();
  });
  if (state.kind === 'missing') return state.message;
  if (state.logs === undefined) return 'single';
  return state.logs.map((l) => [l.name, path.relative(root, l.dir)]);
}

describe('several decision logs', () => {
  it('a root with its own decision folder stays a single log, whatever its packages keep', () => {
    const root = repo({
      'docs/adr/0001-a.md': RECORD,
      'packages/billing/docs/adr/0001-b.md': RECORD,
    });
    expect(logsOf(root)).toBe('single');
    const state = openDecisions(root, { watch: false });
    cleanups.push(() => state.kind === 'loaded' && state.corpus.close());
    expect(state.kind === 'loaded' && state.corpus.decisions.map((d) => [d.id, d.corpusPath])).toEqual([
      ['0001', '0001-a.md'],
    ]);
  });

  it('finds package logs one and two levels down by the root rules, .adr-dir included', () => {
    const root = repo({
      'packages/billing/docs/adr/0001-a.md': RECORD,
      'services/auth/decisions/0001-b.md': RECORD,
      'web/.adr-dir': 'records\n',
      'web/records/0001-c.md': RECORD,
    });
    expect(logsOf(root)).toEqual([
      ['billing', 'packages/billing/docs/adr'],
      ['auth', 'services/auth/decisions'],
      ['web', 'web/records'],
    ]);
  });

  it('names two packages of one name by their paths', () => {
    const root = repo({
      'packages/billing/docs/adr/0001-a.md': RECORD,
      'services/billing/docs/adr/0001-b.md': RECORD,
    });
    expect(logsOf(root)).toEqual([
      ['packages-billing', 'packages/billing/docs/adr'],
      ['services-billing', 'services/billing/docs/adr'],
    ]);
  });

  it('skips dependencies, hidden folders and packages deeper than two levels', () => {
    const root = repo({
      'node_modules/lib/docs/adr/0001-a.md': RECORD,
      '.cache/x/docs/adr/0001-a.md': RECORD,
      'a/b/c/docs/adr/0001-a.md': RECORD,
    });
    expect(logsOf(root)).toMatch(/^No decision records found in /);
  });

  it('moor.json lists the logs; one folder there is a single log', () => {
    const listed = repo({
      'moor.json': JSON.stringify({ decisions: ['one/adr', 'two/docs/adr'] }),
      'one/adr/0001-a.md': RECORD,
      'two/docs/adr/0001-b.md': RECORD,
      'docs/adr/0001-c.md': RECORD,
    });
    expect(logsOf(listed)).toEqual([
      ['one', 'one/adr'],
      ['two', 'two/docs/adr'],
    ]);
    const single = repo({ 'moor.json': '{"decisions": "records"}', 'records/0001-a.md': RECORD });
    expect(logsOf(single)).toBe('single');
  });

  it('a moor.json moor cannot use is refused with why', () => {
    expect(logsOf(repo({ 'moor.json': '{', 'docs/adr/0001-a.md': RECORD }))).toMatch(
      /^No decision records: .*moor\.json is not valid JSON\.$/,
    );
    expect(logsOf(repo({ 'moor.json': '{"decisions": ["gone"]}' }))).toBe(
      'No decision records: moor.json lists gone, not a folder.',
    );
    const outside = repo({ 'elsewhere/adr/0001-a.md': RECORD, 'repo/one/adr/0001-b.md': RECORD });
    fs.writeFileSync(path.join(outside, 'repo/moor.json'), '{"decisions": ["one/adr", "../elsewhere/adr"]}');
    expect(logsOf(path.join(outside, 'repo'))).toMatch(
      /^No decision records: decision folder .*elsewhere\/adr is outside the workspace root /,
    );
    expect(logsOf(repo({ 'moor.json': '{"decisions": 3}' }))).toBe(
      'No decision records: moor.json: "decisions" must be a folder or a non-empty list of folders.',
    );
  });
});
