import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS, exitCodeOf, MoorError, ToolError } from '../src/errors.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Codes the registry declares that no source file raises yet: the HTTP
 * endpoint and the proxy move to them in their own changes. Each name here
 * must really be unraised (a raised one fails the test), so the list can only
 * shrink; once those changes are in, it is empty.
 */
const NOT_YET_RAISED: readonly string[] = ['DAEMON_UNAVAILABLE'];

interface DocumentedRow {
  readonly jsonRpc: number;
  readonly http: number;
  readonly exit: number;
  readonly retryable: boolean;
  readonly meaning: string;
}

/** The rows of the table in docs/errors.md whose first cell is a `CODE`. */
function documentedCodes(): Map<string, DocumentedRow> {
  const rows = new Map<string, DocumentedRow>();
  const doc = readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8');
  for (const line of doc.split('\n')) {
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (code === undefined) continue;
    expect(cells, `the row of ${code}`).toHaveLength(6);
    expect(rows.has(code), `${code} is documented once`).toBe(false);
    const [, jsonRpc, http, exit, retryable, meaning] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    expect(['yes', 'no'], `the Retryable cell of ${code}`).toContain(retryable);
    rows.set(code, {
      jsonRpc: Number(jsonRpc),
      http: Number(http),
      exit: Number(exit),
      retryable: retryable === 'yes',
      meaning,
    });
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every code named as a string literal in src/, outside the registry itself. */
function codesNamedInSources(): Set<string> {
  const registry = path.join(ROOT, 'src/errors.ts');
  const named = new Set<string>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    if (file === registry) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/'([A-Z][A-Z_]+)'/g)) named.add(match[1] as string);
  }
  return named;
}

describe('the error registry', () => {
  it('documents every code with the numbers the registry declares', () => {
    const documented = documentedCodes();
    for (const [code, spec] of Object.entries(ERRORS)) {
      expect(documented.get(code), `docs/errors.md row of ${code}`).toEqual({
        jsonRpc: spec.jsonRpc,
        http: spec.http,
        exit: spec.exit,
        retryable: spec.retryable,
        meaning: spec.meaning,
      });
    }
  });

  it('documents no code the registry does not have', () => {
    const unknown = [...documentedCodes().keys()].filter((code) => !Object.hasOwn(ERRORS, code));
    expect(unknown).toEqual([]);
  });

  it('has every code raised somewhere in src', () => {
    const named = codesNamedInSources();
    const unraised = Object.keys(ERRORS).filter((code) => !named.has(code));
    expect(unraised.sort()).toEqual([...NOT_YET_RAISED].sort());
  });

  it('gives a command line moor cannot act on exit code 2, a refusal to start 4, and every other failure 1', () => {
    expect(exitCodeOf(new MoorError('USAGE', 'bad flag'))).toBe(2);
    expect(exitCodeOf(new ToolError('DECISION_NOT_FOUND', 'no such decision'))).toBe(1);
    expect(exitCodeOf(new MoorError('OPTION_CONFLICT', '--pack needs --direct'))).toBe(1);
    expect(exitCodeOf(new Error('anything else'))).toBe(1);
    expect(exitCodeOf('a string')).toBe(1);
    expect(exitCodeOf(new MoorError('STORE_CORRUPT', 'not a database'))).toBe(4);
    expect(exitCodeOf(new MoorError('GIT_REF_NOT_FOUND', 'no origin/main'))).toBe(2);
    const refusals = new Set(['STATE_DIR_UNUSABLE', 'STORE_CORRUPT']);
    // An --against revision the repository lacks is a command line to fix, like a malformed flag.
    const usage = new Set(['USAGE', 'GIT_REF_NOT_FOUND']);
    for (const [code, spec] of Object.entries(ERRORS))
      expect(spec.exit, code).toBe(usage.has(code) ? 2 : refusals.has(code) ? 4 : 1);
  });

  it('answers a MoorError as the JSON-RPC error its code declares', () => {
    expect(new MoorError('UNKNOWN_TOOL', 'Unknown tool: x', { tool: 'x' }).toJsonRpc()).toEqual({
      code: -32602,
      message: 'Unknown tool: x',
      data: { tool: 'x' },
    });
    expect(new MoorError('INTERRUPTED', 'restarted').toJsonRpc()).toStrictEqual({
      code: -32051,
      message: 'restarted',
    });
  });
});
