/**
 * `npm start` always ends with a serving daemon in the foreground: with a
 * socket-only daemon running, the command package.json's start script runs
 * (on the built binary) has it hand over, serves HTTP and prints the banner;
 * the old daemon exits, and a proxy connected before finishes its in-flight
 * call and reconnects.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, isAlive, makeState, runCli, waitFor } from '../daemon/harness.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { ProxyClient } from '../proxy/proxy-client.js';

afterEach(cleanupAll);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The start script's daemon command (after its build step), on a free port instead of the default. */
function startCommand(port: number): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const command = pkg.scripts.start.split('&&').at(-1)?.trim().split(/\s+/) ?? [];
  expect(command.slice(0, 2)).toEqual(['node', 'dist/cli/main.js']);
  expect(command.at(-1)).toBe('--http');
  return [...command.slice(1), `127.0.0.1:${port}`];
}

describe('npm start with a daemon running', () => {
  it('takes over: serves HTTP, prints the banner; the old daemon exits after its in-flight call', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const started = await runCli(state, ['daemon', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const old = await control(state, 'status');
    expect(old?.status?.httpUrl).toBeNull();

    const proxy = new ProxyClient(state);
    await proxy.initialize();
    const call = proxy.send('tools/call', { name: 'slow_read', arguments: { ms: 1500, label: 'inflight' } });
    await waitFor('the call in flight', async () =>
      ((await control(state, 'status'))?.status?.inFlight ?? 0) >= 1 ? true : undefined,
    );

    const port = await freePort();
    const child = spawn(process.execPath, startCommand(port), {
      cwd: REPO_ROOT,
      env: state.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (child.pid) state.pids.add(child.pid);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    await waitFor(
      'the banner',
      async () => {
        if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${stderr}`);
        return stderr.includes(`or over Streamable HTTP: ${url}`) ? true : undefined;
      },
      30_000,
    );

    const answer = await proxy.response(call, 20_000);
    expect(answer.error, JSON.stringify(answer)).toBeUndefined();
    expect(answer.result?.structuredContent).toMatchObject({ label: 'inflight', slept: 1500 });
    const now = await control(state, 'status');
    expect(now?.incarnation.pid).toBe(child.pid);
    expect(now?.status?.httpUrl).toBe(url);
    await waitFor('the old daemon to exit', async () =>
      isAlive(old?.incarnation.pid ?? 0) ? undefined : true,
    );
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await proxy.request('tools/list')).result?.tools).toBeDefined();
    await waitFor('the proxy on the new daemon', async () =>
      (await control(state, 'status'))?.status?.connectedClients === 1 ? true : undefined,
    );
  }, 60_000);
});
