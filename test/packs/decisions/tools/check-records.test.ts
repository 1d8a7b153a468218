/**
 * What check_decisions reads from the records as written: review dates that
 * have passed (front matter, a `Review by:` line, a table row) and relative
 * links to repository files that are not there, each at its line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkCorpus } from '../../../../src/packs/decisions/check.js';
import { reviewDateOf } from '../../../../src/packs/decisions/record-review.js';
import { checkDecisions } from '../../../../src/packs/decisions/tools/check-decisions.js';
import { call, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

type Finding = { path: string; line: number | null; kind: string; message: string };

describe('review dates', () => {
  it('reads front matter keys, a Review by line and a table row, with their lines', () => {
    expect(reviewDateOf(['---', 'status: accepted', 'review-by: 2020-02-03', '---', '# T'])).toEqual({
      date: '2020-02-03',
      line: 3,
    });
    expect(reviewDateOf(['---', 'review_date: "2021-04-05"', '---'])).toEqual({
      date: '2021-04-05',
      line: 2,
    });
    expect(reviewDateOf(['# T', '', '- **Review by:** 2022-06-07'])).toEqual({ date: '2022-06-07', line: 3 });
    expect(reviewDateOf(['# T', '| Status | Accepted |', '| Review date | 2023-08-09 |'])).toEqual({
      date: '2023-08-09',
      line: 3,
    });
    expect(reviewDateOf(['# T', '```', 'Review by: 2020-01-01', '```'])).toBeNull();
    expect(reviewDateOf(['# T', 'Review by: next spring'])).toBeNull();
  });

  it('check_decisions warns on a past review date and not on a future one or a superseded record', async () => {
    ws = workspace({
      'docs/decisions/0001-old.md':
        '---\nstatus: accepted\ndate: 2019-01-01\nreview-by: 2020-01-01\n---\n# Old\n\nBody.\n',
      'docs/decisions/0002-later.md':
        '# 2. Later\n\nDate: 2024-01-01\nReview by: 2999-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nX.\n',
      'docs/decisions/0003-gone.md': '---\nstatus: superseded\nreview-by: 2020-01-01\n---\n# Gone\n\nBody.\n',
    });
    const out = await call(checkDecisions, ws, {});
    const findings = (out.structured.findings as Finding[]).filter((f) => f.kind === 'review-overdue');
    expect(findings).toEqual([
      {
        path: 'docs/decisions/0001-old.md',
        line: 4,
        kind: 'review-overdue',
        message: '0001 was due for review on 2020-01-01',
      },
    ]);
    expect(out.text).toContain(
      '- docs/decisions/0001-old.md:4: review-overdue: 0001 was due for review on 2020-01-01',
    );
  });

  it('compares with the day it is given, so the same record is due one day and not the day before', () => {
    ws = workspace({
      'docs/decisions/0001-a.md': '---\nstatus: accepted\nreview-by: 2026-05-10\n---\n# A\n',
    });
    const state = ws.ctx().state;
    if (state.kind !== 'loaded') throw new Error('no corpus');
    const kinds = (today: string) => checkCorpus(state.corpus, { today }).findings.map((f) => f.kind);
    expect(kinds('2026-05-10')).toEqual([]);
    expect(kinds('2026-05-11')).toEqual(['review-overdue']);
  });
});

describe('link rot', () => {
  it('reports relative links to missing repository files at their line, and leaves the rest alone', async () => {
    ws = workspace({
      'src/db/pool.ts': 'x',
      'docs/guide.md': 'x',
      'docs/decisions/0001-links.md': [
        '---',
        'status: accepted',
        '---',
        '# Links',
        '',
        'See [the pool](../../src/db/pool.ts#L3) and [the guide](/docs/guide.md).', // line 6: both exist
        'The [old pool](../../src/db/old-pool.ts) is gone.', // line 7: missing
        'Also ![diagram](./img/flow%20chart.png "Flow").', // line 8: missing, decoded
        'Web: [MCP](https://modelcontextprotocol.io), [top](#links), [mail](mailto:a@b.c).',
        'Records are relations, not files: [2](0002-missing.md).',
        '`[code](nowhere.ts)` is not a link.',
        '```',
        '[fenced](nowhere-either.ts)',
        '```',
        '[ref]: ../../scripts/gone.sh',
      ].join('\n'),
    });
    const out = await call(checkDecisions, ws, {});
    const broken = (out.structured.findings as Finding[]).filter((f) => f.kind === 'broken-link');
    expect(broken.map((f) => [f.line, f.message])).toEqual([
      [7, '0001 links to ../../src/db/old-pool.ts, which is not in the repository'],
      [8, '0001 links to ./img/flow%20chart.png, which is not in the repository'],
      [15, '0001 links to ../../scripts/gone.sh, which is not in the repository'],
    ]);
  });

  it('an affects glob that matches nothing is a dead-glob finding at its line', async () => {
    ws = workspace({
      'src/a.ts': 'x',
      'docs/decisions/0001-a.md':
        '---\nstatus: accepted\naffects:\n  - "src/*.ts"\n  - "lib/**/*.rs"\n---\n# A\n',
    });
    const out = await call(checkDecisions, ws, {});
    expect((out.structured.findings as Finding[]).map((f) => [f.kind, f.line])).toEqual([['dead-glob', 5]]);
  });
});
