import { describe, expect, it } from 'vitest';
import { readStatus } from '../../../../../src/packs/decisions/corpus/read/status.js';
import { parseText } from '../helpers.js';

describe('proposal-process statuses', () => {
  it.each([
    ['implementable', 'accepted'],
    ['Implementing', 'accepted'],
    ['implemented', 'accepted'],
    ['Final', 'accepted'],
    ['Active', 'accepted'],
    ['provisional', 'proposed'],
    ['Deferred', 'proposed'],
    ['Final Comment Period', 'proposed'],
    ['withdrawn', 'deprecated'],
    ['Reverted', 'deprecated'],
    ['replaced', 'superseded'],
  ])('%s → %s', (raw, status) => {
    expect(readStatus(raw)).toEqual({ status, placeholder: false, partial: false });
  });

  it('keeps the word as written beside the normalized status', () => {
    const d = parseText('---\nstatus: implementable\n---\n# Use queues\n').decision;
    expect(d).toMatchObject({ status: 'accepted', statusRaw: 'implementable' });
  });

  it('reads "Reverted by …" as superseded by the reverting record', () => {
    const d = parseText('# 3. Use queues\n\n## Status\n\nReverted by [ADR-9](0009-no-queues.md)\n').decision;
    expect(d).toMatchObject({ status: 'superseded', statusRaw: 'Reverted by [ADR-9](0009-no-queues.md)' });
    expect(d?.links.supersededBy).toEqual(['[ADR-9](0009-no-queues.md)']);
  });

  it('reads "Replaced by …" with a project-prefixed ref', () => {
    const d = parseText('# 3. Use queues\n\n## Status\n\nReplaced by KEP-1234\n').decision;
    expect(d).toMatchObject({ status: 'superseded' });
    expect(d?.links.supersededBy).toEqual(['KEP-1234']);
  });
});
