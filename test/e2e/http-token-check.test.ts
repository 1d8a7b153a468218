/**
 * The token never goes to another user's listener on the daemon's port:
 * `moor daemon token --url` (what the printed client configs run) prints it
 * only while the user's own daemon — asked over its owner-checked socket —
 * listens at that URL; for any other listener, or with no daemon running
 * (the moment another user could bind the port), it prints nothing and
 * says why. The printed configs fetch the token this way instead of
 * holding it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHelp } from '../../src/cli/connect-help.js';
import { MOOR_BIN } from '../helpers/paths.js';
import { freePort, killAll, startDaemon, tempState } from '../tasks/daemon-helpers.js';

afterAll(killAll);

function token(stateDir: string, url: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [MOOR_BIN, 'daemon', 'token', '--url', url], {
      env: { ...process.env, MOOR_STATE_DIR: stateDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('moor daemon token --url', () => {
  it('prints the token for the daemon’s own URL only, and nothing once the port may be anyone’s', async () => {
    const state = tempState('moor-token-check-');
    const daemon = await startDaemon(state);
    const secret = fs.readFileSync(path.join(state, 'http.token'), 'utf8').trim();
    expect(await token(state, daemon.url)).toEqual({ code: 0, stdout: `${secret}\n`, stderr: '' });

    // Another listener on another port: not the daemon's.
    const otherPort = await freePort();
    const other = await token(state, `http://127.0.0.1:${otherPort}/mcp`);
    expect(other.code).toBe(1);
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain(
      `your moor daemon listens at ${daemon.url}, not at http://127.0.0.1:${otherPort}/mcp: the token is not handed out to another listener.`,
    );

    // The daemon stops; someone else binds its port: the token is not printed for it.
    const port = Number(new URL(daemon.url).port);
    const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
    daemon.child.kill('SIGTERM');
    await exited;
    const heard: string[] = [];
    const impostor = http.createServer((req, res) => {
      heard.push(String(req.headers.authorization));
      res.end();
    });
    await new Promise<void>((resolve) => impostor.listen(port, '127.0.0.1', resolve));
    try {
      const refused = await token(state, daemon.url);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`no moor daemon of yours is running (state dir ${state})`);
      expect(heard).toEqual([]);
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  }, 30_000);

  it('the printed HTTP config fetches the state dir’s token through the check instead of holding it', () => {
    const url = 'http://127.0.0.1:7777/mcp';
    const text = connectHelp({
      httpUrl: url,
      httpToken: 'literal-secret-token-that-must-not-appear-0123456789',
      httpTokenFile: '/state/http.token',
      workspace: '/w',
      bin: '/opt/moor app/dist/cli/main.js',
    });
    // Only the status page's login link holds the token: the daemon printing it has just bound
    // that port itself, and a browser cannot run the check. Every client configuration fetches it.
    const holding = text.split('\n').filter((line) => line.includes('literal-secret-token'));
    expect(holding).toEqual([
      'Status page (open it in a browser; the link logs you in): http://127.0.0.1:7777/status?token=literal-secret-token-that-must-not-appear-0123456789',
    ]);
    const elsewhere = connectHelp({
      httpUrl: url,
      httpToken: 'literal-secret-token-that-must-not-appear-0123456789',
      httpTokenFile: '/state/http.token',
      workspace: '/w',
      bin: '/m.js',
      stateDir: '/tmp/my state',
    });
    expect(elsewhere).toContain(`$(MOOR_STATE_DIR='/tmp/my state' node /m.js daemon token --url ${url})`);
    expect(text).toContain(
      `--header "Authorization: Bearer $(node '/opt/moor app/dist/cli/main.js' daemon token --url ${url})" -- ${url}`,
    );
  });
});
