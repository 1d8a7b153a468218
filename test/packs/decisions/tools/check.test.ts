/**
 * check_decisions accounts for every Markdown file of the decision folder:
 * a decision, unreadable (with why) or skipped (with why) — nothing silent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkDecisions } from '../../../../src/packs/decisions/tools/check-decisions.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

describe('check_decisions', () => {
  it('gives every file its fate, and says the skipped ones in the text', async () => {
    ws = workspace({
      'docs/decisions/0001-first.md': madr('First', { status: 'accepted' }),
      'docs/decisions/adr-template.md': madr('Template', { status: 'proposed' }),
      'docs/decisions/0002-empty.md': '',
    });
    const out = await call(checkDecisions, ws, {});
    const files = out.structured.files as Array<{ path: string; fate: string; reason: string | null }>;
    expect(files.map((f) => [f.path, f.fate])).toEqual([
      ['docs/decisions/0001-first.md', 'decision'],
      ['docs/decisions/0002-empty.md', 'unreadable'],
      ['docs/decisions/adr-template.md', 'skipped'],
    ]);
    expect(files.find((f) => f.fate === 'skipped')?.reason).toBe('template');
    expect(files.find((f) => f.fate === 'unreadable')?.reason).toMatch(/empty/i);
    expect(out.text).toContain('- docs/decisions/adr-template.md: skipped (template)');
  });

  it('says files were walked only when a governed path had a pattern to walk for', async () => {
    ws = workspace({
      'docs/decisions/0001-first.md': madr('First', { status: 'accepted', affects: ['src/a.ts'] }),
      'src/a.ts': 'export {};\n',
    });
    const literal = await call(checkDecisions, ws, {});
    expect(literal.text).toMatch(/^1 decisions?, no problems \(1 governed paths checked\)/);
    ws.close();
    ws = workspace({
      'docs/decisions/0001-first.md': madr('First', { status: 'accepted', affects: ['src/*.ts'] }),
      'src/a.ts': 'export {};\n',
    });
    const pattern = await call(checkDecisions, ws, {});
    expect(pattern.text).toMatch(/\(1 governed paths checked, \d+ files walked for their patterns\)/);
  });
});
