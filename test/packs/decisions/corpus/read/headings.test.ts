import { describe, expect, it } from 'vitest';
import { headingView, isSectionName } from '../../../../../src/packs/decisions/corpus/read/headings.js';
import { parseText } from '../helpers.js';

describe('setext headings', () => {
  it('reads setext sections like ## sections', () => {
    const text = 'Use queues\n==========\n\nContext\n-------\n\nWe poll.\n\nStatus\n------\n\nRejected\n';
    const r = parseText(text, '0004-use-queues.md');
    expect(r.decision).toMatchObject({ title: 'Use queues', status: 'rejected', statusRaw: 'Rejected' });
    // The body stays as written; the searchable prose starts after the title.
    expect(r.body).toBe(text);
    expect(r.contentStart).toBe('Use queues\n==========\n'.length);
  });

  it('leaves a --- under a paragraph line of YAML in a code fence alone', () => {
    expect(headingView('# A\n\n```yaml\n\nkey: value\n---\n```\n')).toBeNull();
  });

  it('leaves a thematic break after a blank line alone', () => {
    expect(headingView('# A\n\nText.\n\n---\n\nMore.\n')).toBeNull();
  });
});

describe('a record whose only level-1 headings are sections', () => {
  const SECTIONS = '# Context\n\nWe poll.\n\n# Decision\n\nUse queues.\n\n# Status\n\nAccepted\n';

  it.each(['Context', '1. Context', '**Decision**', 'Status:', 'Context and Problem Statement'])(
    '%s is a section name',
    (h) => {
      expect(isSectionName(h)).toBe(true);
    },
  );

  it('is not titled "Context": it takes its title from the file name and reads the # Status section', () => {
    const d = parseText(SECTIONS, '0006-use-queues-for-jobs.md').decision;
    expect(d).toMatchObject({
      title: 'Use queues for jobs',
      titleSource: 'file-name',
      status: 'accepted',
      number: 6,
    });
  });

  it('takes a Title: line over the file name', () => {
    const d = parseText(`Title: Queue the jobs\n\n${SECTIONS}`, '0006-x.md').decision;
    expect(d).toMatchObject({ title: 'Queue the jobs', titleSource: 'field', status: 'accepted' });
  });

  it('takes the front matter title, and a status from the # Status section', () => {
    const d = parseText(`---\ntitle: Queue the jobs\n---\n${SECTIONS}`, '0006-x.md').decision;
    expect(d).toMatchObject({ title: 'Queue the jobs', titleSource: 'front-matter', status: 'accepted' });
    const withStatus = parseText(`---\nstatus: proposed\n---\n${SECTIONS}`, '0006-jobs.md').decision;
    expect(withStatus).toMatchObject({ title: 'Jobs', titleSource: 'file-name', status: 'proposed' });
  });
});
