import { describe, expect, it } from 'vitest';
import { parseText } from '../helpers.js';

describe('front-matter dates under other keys', () => {
  it.each([
    ['creation-date', '2021-03-04'],
    ['created', '2021-03-04'],
    ['date-created', '2021-03-04'],
    ['creation_date', '4 March 2021'],
  ])('takes `%s` as the record date', (key, value) => {
    const d = parseText(`---\nstatus: implementable\n${key}: ${value}\n---\n# Use queues\n`).decision;
    expect(d?.date).toBe('2021-03-04');
    expect(d?.updated).toBeUndefined();
  });

  it('keeps last-updated apart from the creation date', () => {
    const d = parseText(
      '---\nstatus: accepted\nlast-updated: 2023-01-09\ncreation-date: 2021-03-04\n---\n# Use queues\n',
    ).decision;
    expect(d).toMatchObject({ date: '2021-03-04', updated: '2023-01-09' });
  });

  it('never takes an update date for the creation date', () => {
    const d = parseText('---\nstatus: accepted\nlast-updated: 2023-01-09\n---\n# Use queues\n').decision;
    expect(d).toMatchObject({ date: null, updated: '2023-01-09' });
  });

  it('prefers `date` when both are given', () => {
    const d = parseText('---\nstatus: accepted\ndate: 2020-01-01\ncreated: 2019-12-01\n---\n# A\n').decision;
    expect(d?.date).toBe('2020-01-01');
  });

  it('reads a `Last updated:` line in the text', () => {
    const d = parseText(
      '# 1. A\n\nDate: 2020-01-01\nLast updated: 2022-05-06\n\n## Status\n\nAccepted\n',
    ).decision;
    expect(d).toMatchObject({ date: '2020-01-01', updated: '2022-05-06' });
  });
});

describe('front-matter relation keys', () => {
  it('reads `replaces` and `superseded-by` with project-prefixed refs', () => {
    const d = parseText(
      '---\nstatus: replaced\nreplaces:\n  - TEP-0002\nsuperseded-by: [TEP-0040]\n---\n# Use queues\n',
    ).decision;
    expect(d).toMatchObject({ status: 'superseded', statusRaw: 'replaced' });
    expect(d?.links).toMatchObject({ supersedes: ['TEP-0002'], supersededBy: ['TEP-0040'] });
  });
});

describe('a proposal written with mail-style headers', () => {
  it('reads its Title:, Status: and Created: lines', () => {
    const d = parseText(
      'PEP: 8\nTitle: Queue the jobs\nStatus: Active\nCreated: 05-Jul-2001\n\n# Abstract\n\nWhy.\n',
      'pep-0008.md',
    ).decision;
    expect(d).toMatchObject({
      title: 'Queue the jobs',
      status: 'accepted',
      statusRaw: 'Active',
      date: '2001-07-05',
    });
  });
});
