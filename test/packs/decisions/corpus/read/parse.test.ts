import { describe, expect, it } from 'vitest';
import { parseFixture, parseText } from '../helpers.js';

describe('MADR', () => {
  it('reads front matter fields, globs and negations', () => {
    const { decision, problems } = parseFixture('0002-use-postgresql-for-storage.md');
    expect(problems).toEqual([]);
    const { body, ...rest } = decision ?? { body: '' };
    expect(rest).toEqual({
      id: '0002',
      number: 2,
      slug: 'use-postgresql-for-storage',
      path: 'docs/decisions/0002-use-postgresql-for-storage.md',
      corpusPath: '0002-use-postgresql-for-storage.md',
      title: 'Use PostgreSQL for storage',
      status: 'accepted',
      statusRaw: 'accepted',
      date: '2017-03-14',
      deciders: ['Alice Example', 'Bob Example'],
      consulted: ['SRE guild'],
      informed: ['payments team', 'platform team'],
      tags: ['storage', 'database'],
      format: 'madr',
      links: { supersedes: [], supersededBy: [], amends: [], amendedBy: [] },
      governs: ['services/api/**', '!services/api/legacy/**'],
    });
    expect(body.startsWith('# Use PostgreSQL for storage\n')).toBe(true);
    expect(body).not.toContain('deciders:');
  });

  it('reads {path} objects, a single-string scope, relative links and supersession keys', () => {
    expect(parseFixture('0025-proposed-infra-policy.md').decision?.governs).toEqual(['infra/**']);
    expect(parseFixture('0007-crlf-record.md').decision?.governs).toEqual(['web/app/**']);
    const nested = parseFixture('payments/0021-ledger-in-postgres.md').decision;
    expect(nested?.governs).toEqual(['services/payments/**', 'services/ledger/*.ts']);
    expect(nested?.links.amends).toEqual(['../0002-use-postgresql-for-storage.md']);
    expect(parseFixture('0016-cycle-a.md').decision?.links.supersededBy).toEqual(['0017-cycle-b.md']);
    expect(parseFixture('0017-cycle-b.md').decision?.links.supersededBy).toEqual(['16']);
    expect(parseFixture('0015-dangling-supersession.md').decision?.links.supersedes).toEqual(['ADR-0099']);
  });

  it('takes supersession from a "superseded by [..](..)" status and from prose in the body', () => {
    const d = parseText(
      '---\nstatus: "superseded by [ADR-0009](0009-x.md)"\n---\n# Old\n\n## More Information\n\nThis decision supersedes [ADR-0002](0002-y.md).\n',
    ).decision;
    expect(d?.status).toBe('superseded');
    expect(d?.links.supersededBy).toEqual(['[ADR-0009](0009-x.md)']);
    expect(d?.links.supersedes).toEqual(['[ADR-0002](0002-y.md)']);
  });

  it('accepts superseded_by / supersededBy / amended-by spellings and decision-makers', () => {
    const d = parseText(
      '---\nstatus: accepted\nsupersededBy: 3\namended-by: [4, 5]\ndecision-makers: [Ann]\ntitle: From the key\n---\nNo heading here.\n',
    ).decision;
    expect(d?.title).toBe('From the key');
    expect(d?.links.supersededBy).toEqual(['3']);
    expect(d?.links.amendedBy).toEqual(['4', '5']);
    expect(d?.deciders).toEqual(['Ann']);
    // A superseded-by link settles the status even when the word was not updated.
    expect(d?.status).toBe('superseded');
  });

  it('reports broken front matter precisely instead of throwing', () => {
    expect(parseFixture('0011-broken-front-matter.md').problems).toEqual([
      {
        path: 'docs/decisions/0011-broken-front-matter.md',
        kind: 'unparseable',
        message:
          'front matter is not valid YAML: unexpected end of the stream within a flow collection (line 4, column 1)',
      },
    ]);
    expect(parseFixture('0012-unterminated-front-matter.md').problems[0]?.message).toBe(
      'front matter opened with --- on line 1 is never closed',
    );
    expect(parseText('---\n- a\n- b\n---\n# T\n').problems[0]?.message).toBe(
      'front matter is not a YAML mapping of keys to values',
    );
  });

  it('parses MADR 2 bullet metadata as MADR', () => {
    const d = parseFixture('0006-madr-two-bullets.md').decision;
    expect(d?.format).toBe('madr');
    expect([d?.title, d?.status, d?.date, d?.deciders]).toEqual([
      'Cache sessions in Redis',
      'proposed',
      '2020-04-01',
      ['Erin Example'],
    ]);
  });
});

describe('Nygard / adr-tools', () => {
  it('reads number, date, status section and Affects line', () => {
    const d = parseFixture('0005-use-nats-for-events.md').decision;
    expect(d).toMatchObject({
      id: '0005',
      number: 5,
      title: 'Use NATS for events',
      format: 'nygard',
      status: 'accepted',
      statusRaw: 'Accepted',
      date: '2019-09-30',
      governs: ['services/events/**', '!services/events/archive/**'],
    });
    expect(d?.links.supersedes).toEqual(['[3. Use Kafka for events](0003-use-kafka-for-events.md)']);
  });

  it('understands the adr-tools "Superceded by" spelling', () => {
    const d = parseFixture('0003-use-kafka-for-events.md').decision;
    expect(d?.status).toBe('superseded');
    expect(d?.statusRaw).toBe('Superceded by [5. Use NATS for events](0005-use-nats-for-events.md)');
    expect(d?.links.supersededBy).toEqual(['[5. Use NATS for events](0005-use-nats-for-events.md)']);
  });

  it('reads Amends / Amended by', () => {
    expect(parseFixture('0018-logging-format.md').decision?.links.amendedBy).toEqual([
      '[19. Add trace ids to logs](0019-add-trace-ids-to-logs.md)',
    ]);
    const amends = parseFixture('0019-add-trace-ids-to-logs.md').decision;
    expect(amends?.status).toBe('amended');
    expect(amends?.links.amends).toEqual(['[18. Log in JSON lines](0018-logging-format.md)']);
  });

  it('reads comma-separated Affects entries and plain refs', () => {
    const d = parseText(
      '# 4. X\n\nAffects: path:a/**, path:b.ts\n\n## Status\n\nSuperseded by ADR-9 and 0010\n',
    ).decision;
    expect(d?.governs).toEqual(['a/**', 'b.ts']);
    expect(d?.links.supersededBy).toEqual(['ADR-9', '0010']);
  });

  it('tolerates a BOM and keeps non-ASCII titles', () => {
    const bom = parseFixture('0008-bom-record.md').decision;
    expect([bom?.number, bom?.title, bom?.status]).toEqual([8, 'Byte order marks are tolerated', 'accepted']);
    const accented = parseFixture('0009-déploiement-zürich.md').decision;
    expect([accented?.slug, accented?.title, accented?.governs]).toEqual([
      'déploiement-zürich',
      'Déploiement sans état à Zürich',
      ['infra/zürich/**'],
    ]);
  });
});

describe('log4brains', () => {
  it('reads bullets, comma lists and Affects paths', () => {
    const d = parseFixture('0004-adopt-typescript.md').decision;
    expect(d).toMatchObject({
      format: 'log4brains',
      status: 'accepted',
      date: '2018-02-01',
      deciders: ['Carol Example', 'Dan Example'],
      tags: ['frontend', 'language'],
      governs: ['web/**', 'packages/*/src/**'],
    });
  });

  it('reads supersession from the status bullet and from Links bullets', () => {
    const old = parseFixture('0023-terraform-workspaces.md').decision;
    expect(old?.status).toBe('superseded');
    expect(old?.links.supersededBy).toEqual(['[0024-terragrunt](0024-terragrunt.md)']);
    expect(old?.links.supersedes).toEqual([
      '[Structure Terraform as flat modules](0022-terraform-modules.md)',
    ]);
  });
});

describe('problems', () => {
  it('rejects empty files; a file without a title is titled from its name', () => {
    expect(parseFixture('0010-empty.md').problems).toEqual([
      { path: 'docs/decisions/0010-empty.md', kind: 'unparseable', message: 'file is empty' },
    ]);
    const untitled = parseFixture('0013-no-title.md');
    expect(untitled.problems).toEqual([]);
    expect(untitled.decision).toMatchObject({
      id: '0013',
      title: 'No title',
      titleSource: 'file-name',
      status: 'accepted',
      date: '2021-01-03',
    });
    expect(parseText('\n  \n').decision).toBeNull();
  });

  it('keeps a record with an unknown status and reports it', () => {
    const { decision, problems } = parseFixture('0020-strange-status.md');
    expect([decision?.status, decision?.statusRaw]).toEqual(['unknown', 'on hold until Q3']);
    expect(problems).toEqual([
      {
        path: 'docs/decisions/0020-strange-status.md',
        kind: 'unknown-status',
        message:
          'status "on hold until Q3" is not one of proposed, accepted, rejected, deprecated, superseded, amended',
      },
    ]);
  });

  it('handles CRLF files exactly like LF files', () => {
    const lf = parseText('---\nstatus: accepted\ndate: 2020-01-01\n---\n# Same\n\nBody text.\n');
    const crlf = parseText(
      '---\r\nstatus: accepted\r\ndate: 2020-01-01\r\n---\r\n# Same\r\n\r\nBody text.\r\n',
    );
    expect(crlf).toEqual(lf);
  });
});

describe('identity', () => {
  it('takes the number from the file name, else from the title', () => {
    expect(parseFixture('adr_27_underscore-name.md').decision).toMatchObject({
      id: '27',
      number: 27,
      title: 'Underscore file names',
    });
    expect(parseFixture('ADR-0028-prefixed-name.md').decision).toMatchObject({
      id: '0028',
      number: 28,
      status: 'accepted',
    });
    expect(
      parseText('# 12. From the title\n\n## Status\n\nAccepted\n', 'from-the-title.md').decision,
    ).toMatchObject({
      id: '12',
      number: 12,
      slug: 'from-the-title',
      title: 'From the title',
    });
    expect(parseFixture('use-a-monorepo.md').decision).toMatchObject({ id: 'use-a-monorepo', number: null });
  });
});
