/**
 * The corpus fingerprint (fingerprint.ts): the same value for the same
 * records in any order, back where it was when a record goes away, and the
 * very values earlier builds computed, so cursors handed out before an
 * upgrade stay valid.
 */
import { describe, expect, it } from 'vitest';
import { Fingerprint } from '../../../../../src/packs/decisions/corpus/load/fingerprint.js';

const RECORDS: ReadonlyArray<readonly [string, string]> = [
  ['0001-a.md', '120:1700000000000.5:42'],
  ['docs/0002-b.md', '99:1:7'],
  ['x/é.md', '1:2:3'],
];

function printOf(records: ReadonlyArray<readonly [string, string]>): Fingerprint {
  const print = new Fingerprint();
  for (const [key, stamp] of records) print.toggle(key, stamp, true);
  return print;
}

describe('the corpus fingerprint', () => {
  it('is the value earlier builds computed for the same records', () => {
    // Computed by the two-pass implementation this one replaced.
    expect(printOf(RECORDS).toString()).toBe('3-928d014ce64c1bba');
    const print = printOf(RECORDS);
    print.toggle('docs/0002-b.md', '99:1:7', false);
    expect(print.toString()).toBe('2-c7bf39d18aff5c1d');
  });

  it('does not depend on the order records come in, and a record toggled off leaves no trace', () => {
    const forward = printOf(RECORDS).toString();
    expect(printOf([...RECORDS].reverse()).toString()).toBe(forward);
    const print = printOf(RECORDS);
    print.toggle('new.md', '5:5:5', true);
    expect(print.toString()).not.toBe(forward);
    print.toggle('new.md', '5:5:5', false);
    expect(print.toString()).toBe(forward);
  });

  it('changes with a record’s stamp', () => {
    const changed = printOf([
      RECORDS[0] as [string, string],
      ['docs/0002-b.md', '99:2:7'],
      RECORDS[2] as [string, string],
    ]);
    expect(changed.toString()).not.toBe(printOf(RECORDS).toString());
  });
});
