import { describe, expect, it } from 'vitest';
import { parseText } from '../helpers.js';

const BODY = '# 5. Use queues\n\n## Context\n\nWe poll.\n\n## Decision\n\nUse queues.\n\n';

describe('a status told only in a change-log or approval section', () => {
  it('reads a linked status word with its date from a change log', () => {
    const d = parseText(
      `${BODY}## Changelog\n\n- [proposed](https://example.org/pull/3) (2022-06-01)\n- [approved](https://example.org/pull/7) (2022-07-12)\n`,
    ).decision;
    expect(d).toMatchObject({
      status: 'accepted',
      statusRaw: '[approved](https://example.org/pull/7) (2022-07-12)',
      date: '2022-07-12',
    });
  });

  it('takes the latest dated entry even when the log is written newest first', () => {
    const d = parseText(
      `${BODY}## History\n\n- Implemented 2023-02-01\n- Accepted 2022-07-12\n- Proposed 2022-06-01\n`,
    ).decision;
    expect(d).toMatchObject({ status: 'accepted', statusRaw: 'Implemented 2023-02-01' });
  });

  it('reads a bold status word followed by prose, keeping only its sentence', () => {
    const d = parseText(
      `${BODY}## Approval\n\n**Approved** by the platform group. The rollout starts in May.\n`,
    ).decision;
    expect(d).toMatchObject({ status: 'accepted', statusRaw: '**Approved** by the platform group' });
  });

  it('reads a change-log table row', () => {
    const d = parseText(
      `${BODY}## Change log\n\n| Date | Change |\n|---|---|\n| 2021-01-02 | Proposed |\n| 2021-02-03 | Rejected |\n`,
    ).decision;
    expect(d).toMatchObject({ status: 'rejected', statusRaw: 'Rejected' });
  });

  it('lets a stated status win over the history', () => {
    const d = parseText(
      `${BODY}## Status\n\nDeprecated\n\n## Changelog\n\n- approved (2022-07-12)\n`,
    ).decision;
    expect(d).toMatchObject({ status: 'deprecated' });
  });

  it('still reports a record whose history states no status', () => {
    const r = parseText(`${BODY}## History\n\nWe discussed this twice.\n`);
    expect(r.decision?.status).toBe('unknown');
    expect(r.problems.map((p) => p.kind)).toEqual(['unknown-status']);
  });
});
