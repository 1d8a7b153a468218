import { describe, expect, it } from 'vitest';
import { DateOrder, readDate } from '../../../../../src/packs/decisions/corpus/read/dates.js';
import {
  identityFromFileName,
  identityFromTitle,
  isTemplateName,
} from '../../../../../src/packs/decisions/corpus/read/identity.js';
import { readStatus } from '../../../../../src/packs/decisions/corpus/read/status.js';
import {
  extractRefs,
  parseRelationLine,
} from '../../../../../src/packs/decisions/corpus/resolve/relations.js';
import { parseText } from '../helpers.js';

describe('status forms', () => {
  it.each([
    ['✅ Accepted', 'accepted'],
    ['⌛️ Superseded by [ADR-5](0005-x.md)', 'superseded'],
    ['🤔 Proposed', 'proposed'],
    ['❌ Rejected', 'rejected'],
    ['**Accepted**', 'accepted'],
    ['[Accepted]', 'accepted'],
    ['Implemented', 'accepted'],
    ['approved', 'accepted'],
    ['Declined', 'rejected'],
    ['draft', 'proposed'],
    ['Pending', 'proposed'],
    ['In review', 'proposed'],
    ['Status: accepted', 'accepted'],
    ['Accepted, superseded by [x](../0005-x.md)', 'accepted'],
  ])('%s → %s', (raw, status) => {
    expect(readStatus(raw)).toEqual({ status, placeholder: false, partial: false });
  });

  it.each([
    'Accepted or Rejected',
    '{Deprecated|Proposed|Accepted}',
    'proposed | accepted | rejected',
    'Proposed | Accepted | Deprecated | Superseded by [ADR-0005](0005-example.md)',
  ])('%s is a placeholder, never a status', (raw) => {
    expect(readStatus(raw)).toEqual({ status: 'unknown', placeholder: true, partial: false });
  });

  it('reads partial supersession', () => {
    expect(readStatus('Partly superseded by ADR-7')).toEqual({
      status: 'superseded',
      placeholder: false,
      partial: true,
    });
    expect(readStatus('Partially superseded by 7').partial).toBe(true);
  });

  it('reads a status from a table under the title, in either orientation', () => {
    expect(
      parseText('# 1. A\n\n| Status | Accepted |\n|---|---|\n| Date | 2020-01-02 |\n').decision,
    ).toMatchObject({
      status: 'accepted',
      date: '2020-01-02',
    });
    expect(
      parseText('# 1. A\n\n| Status | Date |\n| --- | --- |\n| Rejected | 3 March 2021 |\n').decision,
    ).toMatchObject({ status: 'rejected', date: '2021-03-03' });
    expect(parseText('# 1. A\n\n| Field | Value |\n|---|---|\n| Status | Draft |\n').decision?.status).toBe(
      'proposed',
    );
  });

  it('reads bold keys and a status on the heading line', () => {
    expect(parseText('# 1. A\n\n**Status:** Accepted\n**Date**: 2020-05-06\n').decision).toMatchObject({
      status: 'accepted',
      date: '2020-05-06',
    });
    expect(parseText('# 1. A\n\n## Status: Rejected\n\nBody.\n').decision?.status).toBe('rejected');
  });

  it('keeps only the status statement, not later update paragraphs', () => {
    const d = parseText(
      '# 1. A\n\n## Status\n\nAccepted\n\nIn 2021 we revisited this and kept it.\n',
    ).decision;
    expect(d?.statusRaw).toBe('Accepted');
  });

  it('reads the front matter of a site generator over a record with its metadata in the text', () => {
    const d = parseText(
      '---\ntitle: "ADR 4: Use Jekyll"\nnav_order: 4\n---\n\n## Status\n\nAccepted\n\nDate: 2020-01-01\n',
    ).decision;
    expect(d).toMatchObject({ title: 'Use Jekyll', number: 1, status: 'accepted', format: 'madr' });
  });
});

describe('date forms', () => {
  it.each([
    ['2018-02-05', { date: '2018-02-05' }],
    ['2018/02/05', { date: '2018-02-05' }],
    ['2018-02-05T10:00:00Z', { date: '2018-02-05' }],
    ['5 February 2018', { date: '2018-02-05', order: 'written-day-first' }],
    ['5th Feb 2018', { date: '2018-02-05', order: 'written-day-first' }],
    ['05-Feb-2018', { date: '2018-02-05', order: 'written-day-first' }],
    ['February 5, 2018', { date: '2018-02-05', order: 'written-month-first' }],
    ['25/02/2018', { date: '2018-02-25', order: 'numeric-day-first' }],
    ['02/25/2018', { date: '2018-02-25', order: 'numeric-month-first' }],
    ['05/02/2018', { date: '2018-05-02', dayFirst: '2018-02-05' }],
    ['08/01/24', { date: '2024-08-01', dayFirst: '2024-01-08' }],
    ['05.02.2018', { date: '2018-05-02', dayFirst: '2018-02-05' }],
    ['03/03/2020', { date: '2020-03-03' }],
  ])('%s', (raw, reading) => {
    expect(readDate(raw)).toEqual(reading);
  });

  it.each(['', 'TBD', 'v1.2.24', '31/31/2020', 'February 2018', '2018-02-30'])('%s is no date', (raw) => {
    expect(readDate(raw)).toBeNull();
  });

  it('settles the corpus order: any day-first date wins, else the written majority', () => {
    const order = new DateOrder();
    expect(order.dayFirst).toBe(false);
    order.count('written-day-first', 1);
    expect(order.dayFirst).toBe(true);
    order.count('numeric-month-first', 1);
    expect(order.dayFirst).toBe(false);
    order.count('numeric-day-first', 1);
    expect(order.dayFirst).toBe(true);
    order.count('numeric-day-first', -1);
    expect(order.dayFirst).toBe(false);
  });

  it('never invents a date', () => {
    expect(parseText('# 1. A\n\n## Status\n\nAccepted\n').decision?.date).toBeNull();
  });
});

describe('title numbering', () => {
  it.each([
    ['21. Use X', null, 21, 'Use X'],
    ['ADR-012: Use X', null, 12, 'Use X'],
    ['ADR 12 - Use X', null, 12, 'Use X'],
    ['0012 - Use X', null, 12, 'Use X'],
    ['[ADR-7] Use X', null, 7, 'Use X'],
    ['23 Use X', 23, 23, 'Use X'],
    ['23 Use X', null, null, '23 Use X'],
    ['2024 roadmap', 7, null, '2024 roadmap'],
    ['KEP-1234: Volume snapshots', 1234, 1234, 'Volume snapshots'],
    ['TEP-0023 - Use queues', null, 23, 'Use queues'],
    ['KEP-99: Other record', 1234, null, 'KEP-99: Other record'],
    ['HTTP-2: Serve it', null, null, 'HTTP-2: Serve it'],
  ])('%s (file number %s)', (raw, fileNumber, number, title) => {
    expect(identityFromTitle(raw, fileNumber)).toMatchObject({ number, title });
  });

  it('reads a setext title', () => {
    expect(parseText('Use setext\n==========\n\nStatus: accepted\n').decision?.title).toBe('Use setext');
  });
});

describe('file names', () => {
  it.each([
    ['adr-template.md', true],
    ['ADRXXX-name-template.md', true],
    ['template.md', true],
    ['0000-template.md', true],
    ['0000-adr-template.md', true],
    ['XXXX-title.md', true],
    ['0000.md', true],
    ['0000-use-markdown-architectural-decision-records.md', false],
    ['0001-templates-for-services.md', false],
    ['0101-env-in-pod-template.md', false],
    ['ADR-0012-service-template.md', false],
    ['0005-template.md', true],
    ['adr-0005-madr-template.md', true],
    ['decision-record-template.md', true],
    ['template-madr.md', true],
    ['env-in-pod-template.md', false],
    ['0007-use-x.md', false],
  ])('%s is a template: %s', (name, expected) => {
    expect(isTemplateName(name)).toBe(expected);
  });

  it('reads a leading date as part of the slug, not as a number', () => {
    expect(identityFromFileName('20200925-use-markdown.md')).toEqual({
      number: null,
      numberText: null,
      slug: '20200925-use-markdown',
    });
    expect(identityFromFileName('2020-09-25-use-markdown.md').number).toBeNull();
  });
});

describe('relation refs', () => {
  it.each([
    ['supersedes the decisions made in ADRs 60 and 61', 'supersedes', ['60', '61'], false],
    ['supersedes some aspects of 15 and 16.', 'supersedes', ['15', '16'], true],
    ['Superseded by ADR-0012', 'supersededBy', ['ADR-0012'], false],
    ['Partly superseded by [ADR 13](0013-x.md)', 'supersededBy', ['[ADR 13](0013-x.md)'], true],
    ['This ADR amends ADR-11 and ADR-12', 'amends', ['ADR-11', 'ADR-12'], false],
    ['Amended by #4, #5', 'amendedBy', ['#4', '#5'], false],
  ])('%s', (line, kind, refs, partial) => {
    expect(parseRelationLine(line, true)).toEqual({ kind, refs, partial });
  });

  it('does not read numbers out of ordinary prose', () => {
    expect(parseRelationLine('This decision supersedes the old approach of 3 services', true)).toBeNull();
    expect(extractRefs('the old design, see 12', true)).toEqual([]);
    expect(parseRelationLine('- Replaces 3 cron jobs with one queue', true)).toBeNull();
    expect(parseRelationLine('- Replaces ADR-3 and TEP-0004', true)?.refs).toEqual(['ADR-3', 'TEP-0004']);
    expect(parseRelationLine('Replaced by 12', false)?.refs).toEqual(['12']);
  });
});
