import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import { FIXTURES } from '../helpers.js';

const root = path.join(FIXTURES, 'search');
const corpus = loadCorpus({ workspaceRoot: root, corpusDir: root });
const ids = (query: string, options?: Parameters<typeof corpus.search>[1]) =>
  corpus.search(query, options).hits.map((h) => h.decision.id);

describe('search ranking', () => {
  it('ranks a title match above more body mentions (title boost)', () => {
    // 0002 mentions PostgreSQL twice in its body; 0001 once in its body and once in its title.
    expect(ids('postgresql')).toEqual(['0001', '0002']);
  });

  it('finds longer terms by prefix', () => {
    expect(ids('kube')).toEqual(['0003']);
    expect(ids('postg')).toEqual(['0001', '0002']);
  });

  it('finds a term despite a typo', () => {
    expect(ids('kubernets')).toEqual(['0003']);
    expect(ids('postgress')).toEqual(['0001', '0002']);
    expect(ids('kafak')).toEqual(['0007']);
  });

  it('ranks exact matches above prefix and typo matches', () => {
    const exact = corpus.search('cache').hits[0]?.score ?? 0;
    const prefix = corpus.search('cach').hits[0]?.score ?? 0;
    expect(exact).toBeGreaterThan(prefix);
  });

  it('requires every word, and falls back to any word when no decision has them all', () => {
    const all = corpus.search('cache sessions');
    expect([all.matchedAll, all.hits.map((h) => h.decision.id)]).toEqual([true, ['0004']]);
    const any = corpus.search('redis kafka');
    expect(any.matchedAll).toBe(false);
    expect(any.hits.map((h) => h.decision.id).sort()).toEqual(['0004', '0007']);
  });

  it('filters by normalized status', () => {
    expect(ids('cache').sort()).toEqual(['0004', '0005', '0006']);
    expect(ids('cache', { status: 'accepted' })).toEqual(['0005']);
    expect(ids('cache', { status: 'rejected' })).toEqual(['0006']);
    expect(corpus.search('cache', { status: 'deprecated' }).total).toBe(0);
  });

  it('matches non-ASCII words case-insensitively', () => {
    expect(ids('zürich')).toEqual(['0008']);
    expect(ids('ZÜRICH')).toEqual(['0008']);
    expect(ids('straße')).toEqual(['0008']);
  });

  it('orders ties by path and pages deterministically', () => {
    expect(ids('observability')).toEqual(['0009', '0010']);
    const first = corpus.search('cache', { limit: 2 });
    const second = corpus.search('cache', { limit: 2, offset: 2 });
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    expect([...first.hits, ...second.hits].map((h) => h.decision.id)).toEqual(ids('cache', { limit: 10 }));
    expect(second.hits).toHaveLength(1);
  });

  it('returns nothing for empty or unknown queries', () => {
    expect(corpus.search('').total).toBe(0);
    expect(corpus.search('   ...  ').total).toBe(0);
    expect(corpus.search('xylophone').total).toBe(0);
  });
});

describe('snippets', () => {
  it('shows the text around the first match with the match marked, ellipses where cut', () => {
    expect(corpus.search('billing').hits[0]?.snippet).toBe(
      '… maps and the call graph, and found that the **billing** code is the most tangled part: it reaches into orders, customers and notifications directly, without …',
    );
    expect(corpus.search('afterwards').hits[0]?.snippet).toBe(
      '… gives the largest relief for the smallest effort, and the remaining parts can follow one at a time **afterwards**. ## Decision Outcome Extract billing first.',
    );
  });

  it('shows a short body whole, with whitespace collapsed and every match marked', () => {
    expect(corpus.search('session').hits[0]?.snippet).toBe(
      '## Context and Problem Statement **Session** lookups are slow. A cache in front of the **session** store would help.',
    );
  });

  it('marks prefix and typo matches as they appear in the text', () => {
    expect(corpus.search('kafak').hits[0]?.snippet).toContain(
      'publishes its domain events on **Kafka** topics.',
    );
    expect(corpus.search('postg').hits[0]?.snippet).toContain(
      'a relational model. **PostgreSQL** is what we run',
    );
  });

  it('finds a match deep in a long file', () => {
    expect(corpus.search('zeppelin').hits[0]?.snippet).toBe(
      '… ut labore et dolore magna aliqua. ## Decision Outcome At the very end we mention the **zeppelin** hangar, far beyond the first four kilobytes of this file.',
    );
  });

  it('falls back to the title when only the title matches', () => {
    expect(corpus.search('edge').hits[0]?.snippet).toBe('Cache HTTP responses at the **edge**');
  });
});
