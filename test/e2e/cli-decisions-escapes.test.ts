/**
 * What a hostile repository can put in front of the person running
 * `moor decisions …`: titles, file names and statuses holding terminal
 * control sequences (OSC 0 retitles the window, OSC 52 writes the clipboard,
 * CSI 2 J clears the screen), and file names that are not plain URI paths.
 * Text output shows every control visibly; `--json` keeps the data exact;
 * the SVG is well-formed XML; SARIF URIs lead back to the very file.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOOR_BIN } from '../helpers/paths.js';
import { xmlProblems } from '../helpers/well-formed-xml.js';

const OSC0 = '\u001b]0;pwned title\u0007';
const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
const CSI = '\u001b[2J';
const OTHERS = '\u0008\u007f\u009b1m\u0085';
// A terminal acts on C0 (but newline and tab), DEL and C1; none may reach it raw.
// biome-ignore lint/suspicious/noControlCharactersInRegex: asserting none are left
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

const FILE1 = `0001-base${OSC0}.md`;
const FILE2 = `0002-clip${OSC52}${CSI}.md`;

function moor(...args: string[]) {
  const result = spawnSync(process.execPath, [MOOR_BIN, ...args], { encoding: 'utf8', cwd: os.tmpdir() });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let root: string;
let decisions: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'moor-escapes-')));
  decisions = path.join(root, 'docs/decisions');
  mkdirSync(decisions, { recursive: true });
  writeFileSync(
    path.join(decisions, FILE1),
    `---\nstatus: accepted\ndate: 2026-01-01\n---\n# Base ${OSC0} record ${CSI}\n\nThe base record.\n`,
  );
  writeFileSync(
    path.join(decisions, FILE2),
    [
      `# 2. Clipboard ${OSC52} and ${OTHERS} end`,
      '',
      'Date: 2026-01-02',
      '',
      '## Status',
      '',
      `Wobbly${CSI}\u009b31m`,
      '',
      `Supersedes [ADR-9${OSC0}](0009-gone${CSI}.md)`,
      '',
      '## Context',
      '',
      'Builds on the base record.',
      '',
    ].join('\n'),
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('moor decisions text output with hostile titles, file names and statuses', () => {
  const commands: ReadonlyArray<readonly string[]> = [
    ['search', 'base'],
    ['show', '1'],
    ['show', '2'],
    ['check'],
    ['graph', '--format', 'svg'],
    ['graph', '--format', 'dot'],
    ['graph', '--format', 'mermaid'],
  ];

  for (const command of commands) {
    it(`${command.join(' ')} writes no raw control character, and shows them as \\xHH`, () => {
      const result = moor('decisions', ...command, '-w', root);
      expect(result.stderr).toBe('');
      expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
      expect(result.stdout).toMatch(/\\x1b\]0;pwned title\\x07|\\x1b\]52;c;cHduZWQ=\\x07/);
    });
  }

  it('show and check name the controls in titles, statuses and paths visibly', () => {
    const show = moor('decisions', 'show', '2', '-w', root).stdout;
    expect(show).toContain('Clipboard \\x1b]52;c;cHduZWQ=\\x07 and \\x08\\x7f\\x9b1m\\x85 end');
    expect(show).toContain('Wobbly\\x1b[2J\\x9b31m');
    const check = moor('decisions', 'check', '-w', root);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('docs/decisions/0002-clip\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J.md:');
    expect(check.stdout).toContain('status "Wobbly\\x1b[2J\\x9b31m"');
  });

  it('an error quoting what was asked for shows its controls visibly on stderr', () => {
    const result = moor('decisions', 'show', `nothing${CSI}${OSC52}`, '-w', root);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
    expect(result.stderr).toContain('nothing\\x1b[2J\\x1b]52;c;cHduZWQ=\\x07');
  });

  it('the SVG is well-formed XML', () => {
    const svg = moor('decisions', 'graph', '--format', 'svg', '-w', root).stdout;
    expect(xmlProblems(svg)).toEqual([]);
  });

  it('--json keeps titles, paths and statuses exact', () => {
    const show = JSON.parse(moor('decisions', 'show', '2', '-w', root, '--json').stdout);
    expect(show).toMatchObject({
      title: `Clipboard ${OSC52} and ${OTHERS} end`,
      statusRaw: `Wobbly${CSI}\u009b31m`,
      path: `docs/decisions/${FILE2}`,
    });
    const search = JSON.parse(moor('decisions', 'search', 'base', '-w', root, '--json').stdout);
    expect(search.hits.map((h: { path: string }) => h.path).sort()).toEqual(
      [`docs/decisions/${FILE1}`, `docs/decisions/${FILE2}`].sort(),
    );
    expect(search.hits.find((h: { id: string }) => h.id === '0001')?.title).toBe(
      `Base ${OSC0} record ${CSI}`,
    );
    const check = JSON.parse(moor('decisions', 'check', '-w', root, '--json').stdout);
    expect(check.findings.map((f: { path: string }) => f.path)).toContain(`docs/decisions/${FILE2}`);
  });
});

describe('moor decisions check --format sarif with names that are not plain URI paths', () => {
  let workspace: string;
  const names = ['0009-x#frag?q.md', '0010-100% sure.md', '0011-déjà vu ✓.md', `0012-tab\tand${CSI}.md`];

  beforeAll(() => {
    workspace = path.join(realpathSync(mkdtempSync(path.join(os.tmpdir(), 'moor-sarif-'))), 'c#proj ?%x');
    mkdirSync(path.join(workspace, 'docs/decisions'), { recursive: true });
    // An unknown status gives every file a finding, so every name gets a URI.
    for (const name of names)
      writeFileSync(
        path.join(workspace, 'docs/decisions', name),
        `---\nstatus: pondering\ndate: 2026-01-01\n---\n# ${name}\n\nText.\n`,
      );
  });

  afterAll(() => rmSync(path.dirname(workspace), { recursive: true, force: true }));

  it('every artifact URI, resolved against %SRCROOT%, is the file that has the finding', () => {
    const result = moor('decisions', 'check', '-w', workspace, '--format', 'sarif');
    expect(result.code).toBe(1);
    const run = JSON.parse(result.stdout).runs[0];
    const base = run.originalUriBaseIds['%SRCROOT%'].uri as string;
    expect(fileURLToPath(base)).toBe(`${workspace}/`);
    const files = run.results.map(
      (r: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) => {
        const url = new URL(r.locations[0]?.physicalLocation.artifactLocation.uri ?? '', base);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        return fileURLToPath(url);
      },
    );
    expect(files.sort()).toEqual(names.map((name) => path.join(workspace, 'docs/decisions', name)).sort());
  });
});
