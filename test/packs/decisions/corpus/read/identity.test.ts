import { describe, expect, it } from 'vitest';
import {
  identityFromFileName,
  identityFromTitle,
  isNonDecisionFile,
  parseRef,
} from '../../../../../src/packs/decisions/corpus/read/identity.js';
import { normalizeStatus } from '../../../../../src/packs/decisions/corpus/read/status.js';

describe('identityFromFileName', () => {
  it.each([
    ['0018-use-postgres.md', 18, '0018', 'use-postgres'],
    ['00018-use-postgres.md', 18, '00018', 'use-postgres'],
    ['ADR-0018-use-postgres.md', 18, '0018', 'use-postgres'],
    ['adr_18_use_postgres.md', 18, '18', 'use_postgres'],
    ['0042.md', 42, '0042', '0042'],
    ['use-a-monorepo.md', null, null, 'use-a-monorepo'],
    ['2024-roadmap.markdown', 2024, '2024', 'roadmap'],
  ])('%s', (name, number, numberText, slug) => {
    expect(identityFromFileName(name)).toEqual({ number, numberText, slug });
  });
});

describe('identityFromTitle', () => {
  it.each([
    ['7. Use Kafka', 7, 'Use Kafka'],
    ['ADR-18: Use NATS', 18, 'Use NATS'],
    ['ADR 0018 - Use NATS', 18, 'Use NATS'],
    ['12: Split the monolith', 12, 'Split the monolith'],
    ['2024 roadmap', null, '2024 roadmap'],
    ['Use PostgreSQL', null, 'Use PostgreSQL'],
  ])('%s', (title, number, rest) => {
    const id = identityFromTitle(title);
    expect(id.number).toBe(number);
    expect(id.title).toBe(rest);
  });
});

describe('parseRef', () => {
  it('reads every spelling of a number as the same number', () => {
    for (const ref of ['0018', '18', 'ADR-0018', 'adr-18', 'ADR 18', '#18', 'adr_0018']) {
      expect(parseRef(ref).number, ref).toBe(18);
    }
  });

  it('takes the target of a Markdown link and keeps its label', () => {
    const ref = parseRef('[9. Use NATS](../payments/0009-use-nats.md#status)');
    expect(ref).toEqual({
      text: '../payments/0009-use-nats.md',
      number: null,
      prefixedNumber: null,
      pathLike: true,
      label: '9. Use NATS',
    });
  });

  it('reads a project prefix apart, so it is tried after every other reading', () => {
    expect(parseRef('TEP-0023')).toMatchObject({ number: null, prefixedNumber: 23 });
    expect(parseRef('RFC 42')).toMatchObject({ number: null, prefixedNumber: 42 });
    expect(parseRef('kep-7')).toMatchObject({ number: null, prefixedNumber: 7 });
    expect(parseRef('kafka-7')).toMatchObject({ number: null, prefixedNumber: null });
  });

  it('treats slugs as neither numbers nor paths', () => {
    expect(parseRef('use-postgres')).toEqual({
      text: 'use-postgres',
      number: null,
      prefixedNumber: null,
      pathLike: false,
      label: null,
    });
  });
});

describe('isNonDecisionFile', () => {
  it.each([
    ['README.md', true],
    ['readme.markdown', true],
    ['index.md', true],
    ['template.md', true],
    ['template-madr.md', true],
    ['0001-templates-for-services.md', false],
    ['0001-readme-rules.md', false],
  ])('%s → %s', (name, expected) => {
    expect(isNonDecisionFile(name)).toBe(expected);
  });
});

describe('normalizeStatus', () => {
  it.each([
    ['Accepted', 'accepted'],
    ['**Approved**', 'accepted'],
    ['adopted', 'accepted'],
    ['done', 'accepted'],
    ['Draft', 'proposed'],
    ['proposed', 'proposed'],
    ['Under review', 'proposed'],
    ['in progress', 'proposed'],
    ['Rejected', 'rejected'],
    ['deprecated', 'deprecated'],
    ['Superseded by [9. Foo](0009-foo.md)', 'superseded'],
    ['Superceded by [9. Foo](0009-foo.md)', 'superseded'],
    ['amended', 'amended'],
    ['on hold', 'unknown'],
    ['', 'unknown'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeStatus(raw)).toBe(expected);
  });
});
