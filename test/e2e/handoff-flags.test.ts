/**
 * A handoff keeps what the old daemon was started with: a 0.1.0 daemon
 * serving HTTP on a fixed port with its own limits hands over to the 0.2.0
 * proxy that asks, and the 0.2.0 daemon serves the same port with the same
 * limits. /healthz is polled throughout, each time on a new connection: none
 * is refused, because the old daemon hands its listening socket to the
 * successor, and connections made meanwhile wait for it.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, isAlive, makeState, runCli, waitFor } from '../daemon/harness.js';
import { buildVersionedCopy, olderAndNewerCopies } from '../helpers/versioned-copy.js';
import { ProxyClient } from '../proxy/proxy-client.js';

afterEach(cleanupAll);

const bins = olderAndNewerCopies();
const brokenDirs: string[] = [];
afterAll(() => {
  for (const dir of brokenDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A 0.3.0 copy whose proxy works but whose daemon dies loading its app. */
function brokenDaemonCopy(): string {
  const bin = buildVersionedCopy('0.3.0', brokenDirs);
  const dist = path.dirname(path.dirname(bin));
  for (const entry of ['app/daemon.js', 'bundle/daemon.js']) {
    const file = path.join(dist, entry);
    if (fs.existsSync(file)) fs.writeFileSync(file, "throw new Error('this daemon cannot start');\n");
  }
  return bin;
}

async function startOld(state: ReturnType<typeof makeState>, address: string): Promise<void> {
  const started = await runCli(
    state,
    ['daemon', 'start', '--http', address, '--no-token', '--max-in-flight', '7'],
    {},
    bins.old,
  );
  expect(started.code, started.stderr).toBe(0);
}

/** The longest one health request may wait, queued for the successor, before it is answered. */
const LONGEST_WAIT_MS = 10_000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface HealthAnswer {
  readonly status: number;
  readonly pid: number | undefined;
  readonly waitedMs: number;
}

/** One GET on a connection of its own (no keep-alive): what answered, or how it failed. */
function healthOnce(url: string): Promise<HealthAnswer | Error> {
  const started = Date.now();
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 20_000 }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => {
        let pid: number | undefined;
        try {
          pid = (JSON.parse(body) as { incarnation?: { pid?: number } }).incarnation?.pid;
        } catch {
          pid = undefined;
        }
        resolve({ status: response.statusCode ?? 0, pid, waitedMs: Date.now() - started });
      });
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 20 s')));
    request.on('error', (error) => resolve(error));
  });
}

/** Polls `url` on fresh connections until stopped: every answer, and every failure. */
function pollHealth(url: string): { stop(): Promise<{ answers: HealthAnswer[]; failures: string[] }> } {
  let running = true;
  const answers: HealthAnswer[] = [];
  const failures: string[] = [];
  const loop = (async () => {
    while (running) {
      const outcome = await healthOnce(url);
      if (outcome instanceof Error) failures.push((outcome as NodeJS.ErrnoException).code ?? outcome.message);
      else answers.push(outcome);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { answers, failures };
    },
  };
}

describe('a handoff keeps the old daemon’s flags', () => {
  it('the newer daemon serves HTTP on the same port with the same limits', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    await startOld(state, address);
    const before = await control(state, 'status');
    expect(before?.incarnation.version).toBe('0.1.0');
    expect(before?.status).toMatchObject({ httpUrl: `http://${address}/mcp`, maxInFlight: 7 });

    const poll = pollHealth(`http://${address}/healthz`);
    const upgrader = new ProxyClient(state, undefined, {}, bins.new);
    await upgrader.initialize();
    await upgrader.until('the upgrade line', () =>
      upgrader.stderr.includes('moor: daemon upgraded 0.1.0 → 0.2.0') ? true : undefined,
    );
    const after = await waitFor('the 0.2.0 daemon serving HTTP', async () => {
      const reply = await control(state, 'status');
      return reply?.incarnation.version === '0.2.0' && reply.status?.httpUrl ? reply : undefined;
    });
    const health = await fetch(`http://${address}/healthz`);
    expect(health.status).toBe(200);
    const { answers, failures } = await poll.stop();

    expect(after.status).toMatchObject({ httpUrl: `http://${address}/mcp`, maxInFlight: 7 });
    expect(after.incarnation.pid).not.toBe(before?.incarnation.pid);
    expect(isAlive(before?.incarnation.pid ?? 0)).toBe(false);
    // Not one connection refused or reset across the handoff; the old daemon answered, then the new one.
    expect(failures).toEqual([]);
    const pids = new Set(answers.map((a) => a.pid));
    expect(pids).toContain(before?.incarnation.pid);
    expect(pids).toContain(after.incarnation.pid);
    // While closing, the old daemon says so (503 closing); everything else is the successor's 200.
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).every((a) => a.pid === before?.incarnation.pid)).toBe(
      true,
    );
    expect(Math.max(...answers.map((a) => a.waitedMs))).toBeLessThan(LONGEST_WAIT_MS);
    expect((await upgrader.request('tools/list')).result?.tools).toBeDefined();
  }, 60_000);

  it('when the successor cannot start, the old version serves again with its flags', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    await startOld(state, address);
    const before = await control(state, 'status');

    const broken = new ProxyClient(state, undefined, {}, brokenDaemonCopy());
    await broken.initialize();
    // Each handoff's successor dies; the old daemon starts itself again each time, until the proxy gives up asking.
    await broken.until('the proxy using the older daemon', () =>
      broken.stderr.some((line) => line.includes('keeps being started at version 0.1.0')) ? true : undefined,
    );
    const after = await waitFor('a 0.1.0 daemon serving HTTP again', async () => {
      const reply = await control(state, 'status');
      return reply?.incarnation.version === '0.1.0' && reply.status?.httpUrl ? reply : undefined;
    });
    expect(after.incarnation.pid).not.toBe(before?.incarnation.pid);
    expect(after.status).toMatchObject({ httpUrl: `http://${address}/mcp`, maxInFlight: 7 });
    expect((await fetch(`http://${address}/healthz`)).status).toBe(200);
    expect((await broken.request('tools/list')).result?.tools).toBeDefined();
  }, 90_000);
});
