/**
 * GET /status in headless Chromium (playwright-core, Debian's chromium):
 * no console errors, no request leaves the page, the session and task
 * counts match `moor daemon status --json`, and the graph SVG has one node
 * per decision and one edge per relation of the fixture corpus (with its
 * dangling and cycle edges marked). A screenshot goes to test-output/.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { openDecisions } from '../../src/packs/decisions/state.js';
import { MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { killAll, removeStateDirs } from '../tasks/daemon-helpers.js';
import { authOf, callTool, startTestDaemon, stopTestDaemon } from './helpers.js';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const CORPUS = path.join(REPO_ROOT, 'test/fixtures/corpora/mixed');

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

describe.skipIf(!existsSync(CHROMIUM))('GET /status in a browser', () => {
  it('shows the snapshot and draws the graph of the loaded workspace', async () => {
    const state = openDecisions(CORPUS, { watch: false });
    if (state.kind !== 'loaded') throw new Error('fixture corpus missing');
    const decisions = state.corpus.decisions.length;
    const relations = state.corpus.edges.length + state.corpus.amendments.length;
    const broken = [...state.corpus.edges, ...state.corpus.amendments].filter(
      (e) => e.state !== 'resolved',
    ).length;
    state.corpus.close();
    expect(broken).toBeGreaterThan(0);

    const daemon = await startTestDaemon(['-w', CORPUS]);
    const env = { ...process.env, MOOR_STATE_DIR: daemon.stateDir };
    const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', CORPUS], env);
    const profile = mkdtempSync(path.join(os.tmpdir(), 'moor-chromium-'));
    let browser: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
    try {
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1280, height: 900 },
        // The page sits behind the bearer token like /mcp: the browser sends it.
        extraHTTPHeaders: authOf(daemon.base),
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      expect(
        (await client.modern('tools/call', { name: 'list_superseded', arguments: {} })).error,
      ).toBeUndefined();
      expect((await callTool(daemon.base, 'search_decisions', { query: 'storage' })).status).toBe(200);
      const { stdout } = await run(process.execPath, [MOOR_BIN, 'daemon', 'status', '--json'], { env });
      const status = JSON.parse(stdout) as { sessions: unknown[]; tasks: { counts: Record<string, number> } };

      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      const response = await page.goto(`${daemon.base}/status?workspace=${encodeURIComponent(CORPUS)}`);
      expect(response?.status()).toBe(200);
      expect(problems).toEqual([]);
      expect(requested.every((url) => url.startsWith(`${daemon.base}/status`))).toBe(true);

      expect(Number(await page.textContent('#session-count'))).toBe(status.sessions.length);
      expect(status.sessions.length).toBe(1);
      const taskTotal = Object.values(status.tasks.counts).reduce((a, b) => a + b, 0);
      expect(Number(await page.textContent('#task-count'))).toBe(taskTotal);
      expect(await page.getAttribute('meta[http-equiv="refresh"]', 'content')).toBe(
        `5; url=?workspace=${encodeURIComponent(CORPUS)}`,
      );

      expect(await page.locator('svg.decision-graph g.node.decision').count()).toBe(decisions);
      expect(await page.locator('svg.decision-graph g.edge').count()).toBe(relations);
      expect(await page.locator('svg.decision-graph g.edge.dangling').count()).toBeGreaterThan(0);
      expect(await page.locator('svg.decision-graph g.edge.cycle').count()).toBeGreaterThan(0);
      expect(await page.locator('svg.decision-graph g.edge.amends').count()).toBe(
        state.corpus.amendments.length,
      );

      mkdirSync(path.join(REPO_ROOT, 'test-output'), { recursive: true });
      await page.screenshot({ path: path.join(REPO_ROOT, 'test-output/status-page.png'), fullPage: true });
    } finally {
      await browser?.close();
      rmSync(profile, { recursive: true, force: true });
      await client.close();
      await stopTestDaemon(daemon);
    }
  }, 60_000);
});
