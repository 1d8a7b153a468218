/**
 * The status page opens in a browser: `moor daemon status` prints the login
 * link, headless Chromium follows it with no bearer header, lands on the page
 * without the token in its address, holding an HttpOnly SameSite=Strict
 * cookie for /status only; the same cookie sent to POST /mcp gets 401, and a
 * wrong token gets the 401 page and no cookie.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';
import { killAll, removeStateDirs } from '../tasks/daemon-helpers.js';
import { startTestDaemon, stopTestDaemon } from './helpers.js';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const CORPUS = path.join(REPO_ROOT, 'test/fixtures/corpora/mixed');

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

describe.skipIf(!existsSync(CHROMIUM))('the status page login link in a browser', () => {
  it('logs in with a page-only cookie that POST /mcp refuses', async () => {
    const daemon = await startTestDaemon(['-w', CORPUS]);
    const env = { ...process.env, MOOR_STATE_DIR: daemon.stateDir };
    const token = readFileSync(path.join(daemon.stateDir, 'http.token'), 'utf8').trim();
    const { stdout } = await run(process.execPath, [MOOR_BIN, 'daemon', 'status'], { env });
    const link = /^ {2}status page: {3}(\S+)$/m.exec(stdout)?.[1];
    expect(link).toBe(`${daemon.base}/status?token=${encodeURIComponent(token)}`);

    const profile = mkdtempSync(path.join(os.tmpdir(), 'moor-chromium-'));
    let browser: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
    try {
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
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
      const page = await browser.newPage();
      const wrong = await page.goto(`${daemon.base}/status?token=not-the-token`);
      expect(wrong?.status()).toBe(401);
      expect(await page.textContent('h1')).toBe('401: the bearer token is not valid');
      expect(await page.textContent('body')).toContain(path.join(daemon.stateDir, 'http.token'));
      expect(await browser.cookies()).toEqual([]);

      const response = await page.goto(link as string);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(`${daemon.base}/status`);
      expect(await page.title()).toMatch(/^moor .+ · status$/);
      const cookies = await browser.cookies();
      expect(cookies).toHaveLength(1);
      const [cookie] = cookies;
      expect(cookie).toMatchObject({
        name: 'moor_status',
        domain: '127.0.0.1',
        path: '/status',
        httpOnly: true,
        sameSite: 'Strict',
        expires: -1,
      });
      expect(cookie?.value).not.toBe(token);
      // A reload (the page refreshes itself) stays logged in.
      expect((await page.reload())?.status()).toBe(200);

      const call = await fetch(`${daemon.base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          cookie: `${cookie?.name}=${cookie?.value}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(call.status).toBe(401);
    } finally {
      await browser?.close();
      rmSync(profile, { recursive: true, force: true });
      await stopTestDaemon(daemon);
    }
  }, 60_000);
});
