import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import { FIXTURES } from '../helpers.js';

function load(name: string, corpusDir: string) {
  return loadCorpus({ workspaceRoot: path.join(FIXTURES, name), corpusDir });
}

function fields(name: string, corpusDir: string) {
  return load(name, corpusDir).decisions.map((d) => ({
    id: d.id,
    number: d.number,
    title: d.title,
    status: d.status,
    statusRaw: d.statusRaw,
    date: d.date,
  }));
}

describe('decorated statuses, numbered titles, tables and listed relations', () => {
  const corpus = () => load('wild-emoji', 'docs/adr');

  it('reads every record with its title, status and date', () => {
    expect(fields('wild-emoji', 'docs/adr')).toEqual([
      {
        id: '0011',
        number: 11,
        title: 'Log every request',
        status: 'accepted',
        statusRaw: '✅ **Accepted**',
        date: '2018-02-05',
      },
      {
        id: '012',
        number: 12,
        title: 'Use gRPC between services',
        status: 'superseded',
        statusRaw: '⌛️ Partly superseded by [ADR 13 - Use REST](adr-13-use-rest.md)',
        date: null,
      },
      {
        id: '13',
        number: 13,
        title: 'Use REST for public APIs',
        status: 'accepted',
        statusRaw: 'Accepted',
        date: '2018-02-05',
      },
      {
        id: '0014',
        number: 14,
        title: 'Try GraphQL',
        status: 'rejected',
        statusRaw: '❌ Rejected',
        date: '2019-01-10',
      },
      {
        id: '0015',
        number: 15,
        title: 'Use a queue',
        status: 'proposed',
        statusRaw: '🤔 Proposed',
        date: '2019-02-11',
      },
      {
        id: '0016',
        number: 16,
        title: 'Someone forgot the status',
        status: 'unknown',
        statusRaw: 'Accepted or Rejected',
        date: '2019-02-12',
      },
      {
        id: '0017',
        number: 17,
        title: 'Caching',
        status: 'accepted',
        statusRaw: '[Implemented]',
        date: '2019-03-12',
      },
    ]);
    expect(corpus().decisions.find((d) => d.id === '13')?.deciders).toEqual(['Ann', 'Bo']);
  });

  it('reports a template placeholder status, never reading it as accepted', () => {
    expect(corpus().problems).toEqual([
      {
        path: 'docs/adr/0016-unfilled.md',
        kind: 'unknown-status',
        message:
          'status "Accepted or Rejected" is a template placeholder listing several statuses; pick one of proposed, accepted, rejected, deprecated, superseded, amended',
      },
    ]);
  });

  it('skips the template and the table of contents, saying why', () => {
    expect(corpus().skipped).toEqual([
      { path: 'docs/adr/README.md', reason: 'table of contents' },
      { path: 'docs/adr/adr-template.md', reason: 'template' },
    ]);
  });

  it('merges relations from both sides, lists of refs included, and marks partial supersession', () => {
    const c = corpus();
    expect(c.edges.map((e) => [e.from, e.to, e.state, e.declaredBy.length, e.partial ?? false])).toEqual([
      ['0017', '0015', 'resolved', 1, false],
      ['0017', '0016', 'resolved', 1, false],
      ['13', '012', 'resolved', 2, true],
    ]);
    expect(c.decisions.find((d) => d.id === '012')?.links.partial).toEqual([
      '[ADR 13 - Use REST](adr-13-use-rest.md)',
    ]);
    expect(c.amendments.map((e) => [e.from, e.to, e.fromPath, e.toPath, e.state, e.declaredBy])).toEqual([
      [
        '13',
        '0011',
        'docs/adr/adr-13-use-rest.md',
        'docs/adr/0011-log-everything.md',
        'resolved',
        ['docs/adr/0011-log-everything.md', 'docs/adr/adr-13-use-rest.md'],
      ],
    ]);
  });
});

describe('day-first numeric dates and status synonyms', () => {
  it('reads the whole corpus day-first once one date can only be read that way', () => {
    expect(fields('wild-daymonth', 'adr')).toEqual([
      {
        id: '0001',
        number: 1,
        title: 'Record decisions',
        status: 'accepted',
        statusRaw: 'Approved',
        date: '2018-02-05',
      },
      {
        id: '0002',
        number: 2,
        title: 'Pick a cloud',
        status: 'rejected',
        statusRaw: 'Declined',
        date: '2018-03-25',
      },
      {
        id: '0003',
        number: 3,
        title: 'Use Terraform',
        status: 'proposed',
        statusRaw: 'Draft',
        date: '2024-01-08',
      },
      {
        id: '0004',
        number: 4,
        title: 'Split repos',
        status: 'proposed',
        statusRaw: 'In review',
        date: '2018-04-01',
      },
    ]);
    const c = load('wild-daymonth', 'adr');
    expect(c.problems).toEqual([]);
    expect(c.skipped).toEqual([{ path: 'adr/0000-adr-template.md', reason: 'template' }]);
  });
});

describe('one record per topic folder', () => {
  it('reads <topic>/README.md and <topic>/index.md as records named by their folder', () => {
    const c = load('wild-topics', 'docs/decisions');
    expect(
      c.decisions.map((d) => [d.id, d.number, d.slug, d.title, d.titleSource, d.status, d.date]),
    ).toEqual([
      ['0001', 1, 'use-postgres', 'Use Postgres', undefined, 'accepted', '2021-06-01'],
      ['0002', 2, 'use-redis', 'Use redis', 'file-name', 'superseded', '2021-07-01'],
    ]);
    expect(c.skipped).toEqual([{ path: 'docs/decisions/README.md', reason: 'table of contents' }]);
    expect(c.edges.map((e) => [e.from, e.to, e.state])).toEqual([['0001', '0002', 'resolved']]);
    expect(c.problems).toEqual([]);
  });
});

describe('records without a heading', () => {
  it('take the title from the site navigation, a Title: line, or the file name', () => {
    const c = load('wild-nav', 'docs/architecture/decisions');
    expect(c.decisions.map((d) => [d.id, d.title, d.titleSource, d.status, d.date])).toEqual([
      ['0001', 'Event sourcing for orders', 'nav', 'accepted', '2022-01-03'],
      ['0002', 'Keep read models in Postgres', 'field', 'proposed', null],
      ['0003', 'From the name', 'file-name', 'proposed', null],
    ]);
    expect(c.problems).toEqual([]);
  });
});

describe('log4brains date-prefixed names', () => {
  it('are slugs, not numbers, and give the date when the record has none', () => {
    const c = load('wild-log4brains', 'docs/adr');
    expect(c.decisions.map((d) => [d.id, d.number, d.slug, d.date])).toEqual([
      ['20200925-use-markdown', null, '20200925-use-markdown', '2020-09-25'],
      ['20201002-use-log4brains', null, '20201002-use-log4brains', '2020-10-02'],
      ['20201003-a-dated-file', null, '20201003-a-dated-file', '2020-10-03'],
    ]);
    expect(c.problems).toEqual([]);
    expect(c.skipped).toEqual([{ path: 'docs/adr/template.md', reason: 'template' }]);
    expect(c.amendments.map((e) => [e.from, e.to, e.state])).toEqual([
      ['20201002-use-log4brains', '20200925-use-markdown', 'resolved'],
    ]);
  });
});

describe('a folder with Markdown files but no decisions', () => {
  it('is a corpus-level problem, and every file is still accounted for', () => {
    const c = load('wild-empty', 'docs/adr');
    expect(c.decisions).toEqual([]);
    expect(c.problems).toEqual([
      {
        path: 'docs/adr',
        kind: 'no-decisions',
        message: '2 Markdown files in the folder, but not one is a decision record',
      },
    ]);
    expect(c.skipped).toEqual([
      { path: 'docs/adr/README.md', reason: 'table of contents' },
      { path: 'docs/adr/template.md', reason: 'template' },
    ]);
  });
});
