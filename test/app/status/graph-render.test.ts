/**
 * The status page's graph is laid out once per corpus version (a reload of
 * an unchanged corpus costs no layout, a changed one is laid out again), and
 * a graph too large to lay out quickly is summarised, never laid out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphRenderCache, MAX_DRAWN_NODES } from '../../../src/app/status/graph-render.js';
import { type Corpus, loadCorpus } from '../../../src/packs/decisions/corpus/corpus.js';
import { graphToSvg } from '../../../src/packs/decisions/graph-svg.js';
import { type DecisionGraph, decisionGraph } from '../../../src/packs/decisions/graph-view.js';
import { writeLargeCorpus } from '../../helpers/large-corpus.js';

const open: Corpus[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function corpusOf(count: number): { corpus: Corpus; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-graph-render-'));
  dirs.push(dir);
  writeLargeCorpus(dir, count);
  const corpus = loadCorpus({ workspaceRoot: dir, corpusDir: dir, watch: false });
  open.push(corpus);
  return { corpus, dir };
}

function countingLayout(): { layout: (g: DecisionGraph) => string; calls: () => number } {
  let calls = 0;
  return {
    layout: (graph) => {
      calls += 1;
      return graphToSvg(graph);
    },
    calls: () => calls,
  };
}

describe('the status graph render', () => {
  it('lays a corpus version out once; a changed corpus is laid out again', () => {
    const { corpus, dir } = corpusOf(12);
    const counted = countingLayout();
    const cache = new GraphRenderCache({ layout: counted.layout });
    const render = () => cache.render('room', corpus.fingerprint, () => decisionGraph(corpus), 'moor …');
    const first = render();
    const second = render();
    expect(counted.calls()).toBe(1);
    expect(second).toBe(first);
    expect(first).toMatchObject({ decisions: 12, relations: 4, summarized: false });
    expect(first.html).toMatch(/^<svg/);

    fs.writeFileSync(path.join(dir, '0013-new.md'), '---\nstatus: proposed\nsupersedes: [12]\n---\n# New\n');
    corpus.refresh();
    const third = render();
    expect(counted.calls()).toBe(2);
    expect(third).toMatchObject({ decisions: 13, relations: 5 });
  });

  it('summarises a 1,500-record graph without laying it out', () => {
    const { corpus } = corpusOf(1_500);
    const counted = countingLayout();
    const cache = new GraphRenderCache({ layout: counted.layout });
    const command = "moor decisions graph -w '/w s' --format svg > decisions.svg";
    const rendered = cache.render('room', corpus.fingerprint, () => decisionGraph(corpus), command);
    expect(counted.calls()).toBe(0);
    expect(rendered).toMatchObject({ decisions: 1_500, relations: 500, summarized: true });
    expect(rendered.html).not.toContain('<svg');
    expect(rendered.html).toContain(
      `1500 decisions and 500 relations: more than the ${MAX_DRAWN_NODES} nodes this page draws.`,
    );
    expect(rendered.html).toContain(
      'moor decisions graph -w &#39;/w s&#39; --format svg &#62; decisions.svg',
    );
    expect(rendered.html).toMatch(
      /<tr><td><span class="dot"[^>]*><\/span>accepted<\/td><td>1000<\/td><\/tr>/,
    );
    expect(rendered.html).toContain('<tr><td>supersedes · resolved</td><td>500</td></tr>');
  });
});
