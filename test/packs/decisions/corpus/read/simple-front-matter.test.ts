/**
 * The simple front-matter reader may only answer what js-yaml's CORE_SCHEMA
 * load answers: for arbitrary front matter built from the pieces records use
 * and the pieces YAML reads specially, whenever it gives a mapping, js-yaml
 * gives the same keys in the same order with the same values; and it takes
 * the common forms itself.
 */
import fc from 'fast-check';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readSimpleFrontMatter } from '../../../../../src/packs/decisions/corpus/read/simple-front-matter.js';

const tricky = fc.constantFrom(
  'accepted',
  'Aiko Mori',
  'platform team',
  'Use X, Y and Z',
  'a#b',
  'a #b',
  'a: b',
  'a:',
  'yes',
  'no',
  'null',
  'Null',
  'NULL',
  'true',
  'False',
  '~',
  '.inf',
  '.NaN',
  '0x1F',
  '0o17',
  '1_000',
  '12',
  '-3.5e2',
  '1e3',
  '2016-01-05',
  '2016-1-5',
  '2016-01-05T10:00:00Z',
  'services/api/**',
  '"services/api/**"',
  "'proto/x/**'",
  '"a \\"q\\" b"',
  "'it''s'",
  '"a\\tb"',
  '""',
  "''",
  '[a, b]',
  '[]',
  '[ ]',
  '[a,b]',
  '[a, [b]]',
  '["a, b"]',
  '[a  b]',
  '{a: b}',
  '|',
  '>',
  '&anchor x',
  '*alias',
  '!tag x',
  '%x',
  '@x',
  '`x`',
  'a[b]',
  'é',
  'Zürich',
  'x ',
  ' x',
  'a  b',
  'a\tb',
  '- x',
  '? x',
  'x?',
  'a~b',
  "it's",
);
const safe = fc.constantFrom(
  'accepted',
  'Aiko Mori',
  'platform team',
  'Use X, Y and Z',
  '2016-01-05',
  '"services/api/**"',
  "'proto/x/**'",
  'services/api/**',
  '[a, b]',
  '[Aiko Mori, "x/**"]',
  '[]',
  'Zürich',
  'x?',
  'a~b',
);
const words = fc.oneof({ weight: 6, arbitrary: safe }, { weight: 1, arbitrary: tricky });
const key = fc.constantFrom(
  'status',
  'date',
  'deciders',
  'tags',
  'title',
  'null',
  'true',
  'a-b',
  'x_y',
  '1',
  '__proto__',
  'k k',
  '"q"',
);
const sep = fc.oneof(
  { weight: 12, arbitrary: fc.constant(': ') },
  { weight: 1, arbitrary: fc.constantFrom(':', ':  ', ':\t', ' : ') },
);
const dash = fc.oneof(
  { weight: 8, arbitrary: fc.constant('  - ') },
  { weight: 1, arbitrary: fc.constantFrom('- ', '    - ', '  -', '  -  ') },
);
const item = fc.tuple(dash, words).map(([d, w]) => d + w);
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, sep, words).map(([k, s, w]) => `${k}${s}${w}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(key, fc.array(item, { maxLength: 3 }))
      .map(([k, items]) => [`${k}:`, ...items].join('\n')),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        key,
        fc.array(fc.constantFrom('a', 'Aiko Mori', '"x/**"', "'y'", 'null', '12', 'a#b', ''), {
          maxLength: 4,
        }),
      )
      .map(([k, items]) => `${k}: [${items.join(', ')}]`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '# comment', '---', '...', '  indented: x', 'key', 'k:v', 'a: b: c'),
  },
);
// Mostly distinct keys (a repeated key is js-yaml's error to word) and Unix line ends.
const frontMatter = fc
  .uniqueArray(line, { selector: (l) => l.split(/[: ]/)[0], maxLength: 7 })
  .chain((lines) =>
    fc
      .oneof({ weight: 4, arbitrary: fc.constant('\n') }, { weight: 1, arbitrary: fc.constant('\r\n') })
      .map((eol) => lines.join(eol) + (lines.length > 0 ? eol : '')),
  );

function yamlLoad(text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA });
  } catch {
    return 'js-yaml throws';
  }
}

describe('readSimpleFrontMatter', () => {
  it('answers only what js-yaml answers, keys in the same order', () => {
    let answered = 0;
    let nonEmpty = 0;
    fc.assert(
      fc.property(frontMatter, (text) => {
        const simple = readSimpleFrontMatter(text);
        if (simple === undefined) return;
        answered++;
        if (Object.keys(simple).length > 1) nonEmpty++;
        const expected = yamlLoad(text);
        expect(JSON.stringify(simple), text).toBe(JSON.stringify(expected ?? {}));
        expect(Object.getPrototypeOf(simple)).toBe(Object.prototype);
      }),
      { numRuns: 20000 },
    );
    // The comparison must have something to compare: many generated texts take the simple path.
    expect(answered).toBeGreaterThan(2000);
    expect(nonEmpty).toBeGreaterThan(300);
  });

  it('reads the forms records use itself', () => {
    const text = [
      'status: accepted',
      'date: 2016-01-05',
      'decision-makers: [Aiko Mori, Will Okonkwo, Maya Goldberg]',
      'consulted: [finance]',
      'informed: []',
      'title: Use Postgres, not MySQL',
      'superseded-by:',
      'affects:',
      '  - "services/documents/src/api/**"',
      "  - 'proto/documents/**'",
      '  - infra/k8s/documents',
      '',
    ].join('\n');
    const simple = readSimpleFrontMatter(text);
    expect(simple).toEqual(yamlLoad(text));
    expect(Object.keys(simple ?? {})).toEqual([
      'status',
      'date',
      'decision-makers',
      'consulted',
      'informed',
      'title',
      'superseded-by',
      'affects',
    ]);
  });

  it('leaves to js-yaml what it cannot be sure of', () => {
    for (const text of [
      'status: accepted # for now\n',
      'count: 12\n',
      'flag: true\n',
      'status: accepted\nstatus: rejected\n',
      'title: "a \\"quoted\\" word"\n',
      'a: b: c\n',
      'status: accepted\n\ndate: 2020-01-01\n',
      'tags:\n  - a\n   - b\n',
    ])
      expect(readSimpleFrontMatter(text), text).toBeUndefined();
  });
});
