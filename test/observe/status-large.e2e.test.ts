/**
 * /status on a 1,500-record corpus does not hold the daemon: the graph is
 * summarised instead of laid out (no layout at all: graph-render.test.ts
 * counts the layout calls), a reload serves the same render, and a socket
 * request sent while pages are being served is answered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeLargeCorpus } from '../helpers/large-corpus.js';
import { MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { killAll, removeStateDirs, tempState } from '../tasks/daemon-helpers.js';
import { authOf, startTestDaemon, stopTestDaemon } from './helpers.js';

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

function graphSection(html: string): string {
  const start = html.indexOf('<div class="graph">');
  return html.slice(start, html.indexOf('</section>', start));
}

describe('/status on a large corpus', () => {
  it('summarises the graph, serves reloads from the cache and keeps the socket answering', async () => {
    const workspace = tempState('moor-large-ws-');
    writeLargeCorpus(path.join(workspace, 'docs/adr'), 1_500);
    fs.mkdirSync(path.join(workspace, '.git'));
    const daemon = await startTestDaemon(['-w', workspace]);
    const env = { ...process.env, MOOR_STATE_DIR: daemon.stateDir };
    const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', workspace], env);
    try {
      // The first call loads the corpus (the page never loads one).
      const loaded = await client.modern('tools/call', { name: 'list_superseded', arguments: {} });
      expect(loaded.error).toBeUndefined();
      const page = () =>
        fetch(`${daemon.base}/status?workspace=${encodeURIComponent(workspace)}`, {
          headers: authOf(daemon.base),
        }).then(async (r) => ({ status: r.status, html: await r.text() }));

      const first = await page();
      expect(first.status).toBe(200);
      const section = graphSection(first.html);
      expect(section).toContain('<div class="graph-summary">');
      expect(section).toContain('1500 decisions and 500 relations');
      expect(section).not.toContain('<svg');

      // Pages and a socket call in flight together.
      const pages = [page(), page(), page()];
      const call = client.modern('tools/call', { name: 'get_decision', arguments: { ref: '1500' } });
      const served = await Promise.all(pages);
      expect((await call).error).toBeUndefined();
      for (const reload of served) {
        expect(reload.status).toBe(200);
        expect(graphSection(reload.html)).toBe(section);
      }
    } finally {
      await client.close();
      await stopTestDaemon(daemon);
    }
  }, 60_000);
});
