/**
 * The decisions graph's SVG is well-formed XML whatever a title, id or path
 * holds: every control character, XML's non-characters, lone surrogates,
 * markup characters, and a surrogate pair where a long title is cut.
 */
import { describe, expect, it } from 'vitest';
import { graphToSvg } from '../../../src/packs/decisions/graph-svg.js';
import type { DecisionGraph } from '../../../src/packs/decisions/graph-view.js';
import { xmlProblems } from '../../helpers/well-formed-xml.js';

const EVERY_CONTROL = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
const C1 = Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)).join('');
const HOSTILE = [
  `ctl ${EVERY_CONTROL}`,
  `c1 ${C1}`,
  'osc \u001b]0;title\u0007 clip \u001b]52;c;cHduZWQ=\u0007 csi \u001b[2J',
  'nonchars \ufffe \uffff',
  'lone \ud800 high, lone \udc00 low, reversed \udc00\ud800',
  `markup <svg> & "quoted" 'single' &amp; ]]> <!-- -->`,
  // The 31st and 32nd code units are one emoji: cutting by units would leave half of it.
  `${'x'.repeat(30)}😀 and more after the cut`,
];

function graphOf(titles: readonly string[]): DecisionGraph {
  const nodes = titles.map((title, i) => ({
    key: `docs/decisions/000${i}-${title}.md`,
    id: `000${i}${title.slice(0, 8)}`,
    title,
    status: 'accepted' as const,
  }));
  const missing = {
    key: `ref:${HOSTILE[2]}`,
    id: HOSTILE[2] as string,
    title: 'no record',
    status: 'missing' as const,
  };
  const edges = nodes.slice(1).map((n, i) => ({
    from: n.key,
    to: (nodes[i] as { key: string }).key,
    kind: 'supersedes' as const,
    state: 'resolved' as const,
    partial: false,
  }));
  edges.push({
    from: (nodes[0] as { key: string }).key,
    to: missing.key,
    kind: 'supersedes',
    state: 'resolved',
    partial: false,
  });
  return { nodes: [...nodes, missing], edges };
}

describe('graphToSvg with hostile titles', () => {
  it('is well-formed XML 1.0 for every control, non-character, lone surrogate and markup character', () => {
    const svg = graphToSvg(graphOf(HOSTILE));
    expect(xmlProblems(svg)).toEqual([]);
  });

  it('shows controls visibly and replaces what XML cannot hold with U+FFFD', () => {
    const svg = graphToSvg(graphOf(HOSTILE));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting none are left
    expect(svg).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(svg).toContain('osc \\x1b]0;title\\x07 clip \\x1b]52;c;cHduZWQ=\\x07 csi \\x1b[2J');
    expect(svg).toContain('c1 \\x7f\\x80');
    expect(svg).toContain('nonchars \ufffd \ufffd');
    expect(svg).toContain('lone \ufffd high, lone \ufffd low, reversed \ufffd\ufffd');
    expect(svg).toContain('markup &#60;svg&#62; &#38; &#34;quoted&#34; &#39;single&#39; &#38;amp;');
  });

  it('cuts a long title between code points, never inside a surrogate pair', () => {
    const svg = graphToSvg(graphOf([`${'x'.repeat(30)}😀 and more after the cut`]));
    expect(svg).toContain(`${'x'.repeat(30)}😀…</text>`);
  });

  it('the checker itself refuses what a browser would refuse', () => {
    expect(xmlProblems('<svg><text>\u001b</text></svg>')).toEqual(['character U+001b at 11']);
    expect(xmlProblems('<svg><text>a & b</text></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg><g></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg a="x<y"/>')).not.toEqual([]);
    expect(xmlProblems('<svg a="&#27;"/>')).not.toEqual([]);
    expect(xmlProblems('<svg>\ud800</svg>')).not.toEqual([]);
    expect(xmlProblems('<svg a="&#60;" b=\'&amp;\'><t>&#x1F600;</t></svg>')).toEqual([]);
  });
});
