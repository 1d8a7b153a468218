/**
 * The dates people ask the CLI about: `check --max-proposed-age DAYS` and a
 * review date that has passed, and `search --since/--until/--tag`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MOOR_BIN } from '../helpers/paths.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-dates-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const dir = path.join(root, 'docs/decisions');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(
  path.join(dir, '0001-old-idea.md'),
  '---\nstatus: proposed\ndate: 2020-01-01\ntags: [storage]\n---\n# Old idea\n\nCache.\n',
);
fs.writeFileSync(
  path.join(dir, '0002-new-idea.md'),
  `---\nstatus: proposed\ndate: ${new Date().toISOString().slice(0, 10)}\n---\n# New idea\n\nCache.\n`,
);
fs.writeFileSync(
  path.join(dir, '0003-kept.md'),
  '---\nstatus: accepted\ndate: 2021-01-01\nreview-by: 2022-01-01\n---\n# Kept\n\nCache.\n',
);

function moor(...args: string[]) {
  const result = spawnSync(process.execPath, [MOOR_BIN, ...args, '-w', root], {
    encoding: 'utf8',
    cwd: os.tmpdir(),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('moor decisions and dates', () => {
  it('check warns on a passed review date always, and on old proposals with --max-proposed-age', () => {
    const plain = moor('decisions', 'check', '--json');
    expect(plain.code).toBe(1);
    expect(
      JSON.parse(plain.stdout).findings.map((f: { kind: string; path: string }) => [f.kind, f.path]),
    ).toEqual([['review-overdue', 'docs/decisions/0003-kept.md']]);
    const aged = moor('decisions', 'check', '--max-proposed-age', '90');
    expect(aged.code).toBe(1);
    expect(aged.stdout).toMatch(
      /- docs\/decisions\/0001-old-idea\.md: proposal-too-old: 0001 has been proposed since 2020-01-01 \(\d+ days, more than 90\): accept, reject or withdraw it/,
    );
    expect(aged.stdout).not.toContain('0002-new-idea.md');
    const github = moor('decisions', 'check', '--max-proposed-age', '90', '--format', 'github');
    expect(github.stdout).toMatch(
      /^::warning file=docs\/decisions\/0001-old-idea\.md,title=moor%3A proposal-too-old::/m,
    );
    expect(github.stdout).toMatch(
      /^::warning file=docs\/decisions\/0003-kept\.md,line=4,title=moor%3A review-overdue::/m,
    );
    // commander refuses a malformed option value (exit 1, its usage text), as for every option.
    // A value the command line cannot act on is a usage error: one line, exit 2.
    expect(moor('decisions', 'check', '--max-proposed-age', 'soon')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('expected a whole number of days'),
    });
  });

  it('search takes --since, --until and --tag', () => {
    const since = moor('decisions', 'search', 'cache', '--since', '2021-01-01', '--json');
    expect(
      JSON.parse(since.stdout)
        .hits.map((h: { id: string }) => h.id)
        .sort(),
    ).toEqual(['0002', '0003']);
    const tagged = moor(
      'decisions',
      'search',
      'cache',
      '--tag',
      'storage',
      '--until',
      '2020-12-31',
      '--json',
    );
    expect(JSON.parse(tagged.stdout).hits.map((h: { id: string }) => h.id)).toEqual(['0001']);
    const bad = moor('decisions', 'search', 'cache', '--since', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^moor: option '--since <date>' argument 'yesterday' is invalid\. expected a date as YYYY-MM-DD.*\(see moor decisions search --help\)\n$/,
    );
  });
});
