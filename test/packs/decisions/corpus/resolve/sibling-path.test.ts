/**
 * siblingPath (resolve.ts): a link read relative to the folder of the record
 * that wrote it, exactly as path.posix.join(dirname(from), text) reads it,
 * for every corpus path the walker makes (normalized, relative) and any link
 * text, plain file names (the shortcut) and paths with dots and slashes alike.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { siblingPath } from '../../../../../src/packs/decisions/corpus/resolve/resolve.js';

const name = fc.constantFrom('a', 'b1', 'billing', 'x_y', 'docs-2');
const segment = fc.oneof(
  name,
  name.map((n) => `${n}.md`),
  fc.constantFrom('.', '..', '...', '.hidden', 'a b.md', 'x.md#top', ''),
);
/** What the walker makes: folders and a file name, relative and normalized. */
const corpusPath = fc
  .tuple(fc.array(name, { maxLength: 3 }), name)
  .map(([dirs, file]) => [...dirs, `${file}.md`].join('/'));
const linkText = fc.oneof(
  segment,
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
);

describe('siblingPath', () => {
  it('reads a link as path.posix.join(dirname(from), text) does', () => {
    fc.assert(
      fc.property(corpusPath, linkText, (from, text) => {
        expect(siblingPath(from, text)).toBe(path.posix.join(path.posix.dirname(from), text));
      }),
      { numRuns: 5000 },
    );
  });

  it('puts a plain file name after the folder, and alone for a record at the top', () => {
    expect(siblingPath('billing/0001-a.md', '0002-b.md')).toBe('billing/0002-b.md');
    expect(siblingPath('0001-a.md', '0002-b.md')).toBe('0002-b.md');
    expect(siblingPath('billing/0001-a.md', '../0002-b.md')).toBe('0002-b.md');
  });
});
