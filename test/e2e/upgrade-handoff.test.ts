/**
 * Upgrading the daemon under running proxies: two copies of the build that
 * differ only in their package.json version. A 0.2.0 proxy that finds a
 * 0.1.0 daemon has it hand over; the 0.1.0 proxy's requests in flight are all
 * answered, both proxies end up on the 0.2.0 daemon, and a 0.1.0 proxy
 * started afterwards warns once and uses the newer daemon.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDaemon } from '../../src/protocol/daemon-link.js';
import { HELLO_VERSION } from '../../src/protocol/hello.js';
import { cleanupAll, control, makeState, paths, startDaemon, waitFor } from '../daemon/harness.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { olderAndNewerCopies } from '../helpers/versioned-copy.js';
import { ProxyClient } from '../proxy/proxy-client.js';

afterEach(cleanupAll);

const bins = olderAndNewerCopies();

const UPGRADED = 'moor: daemon upgraded 0.1.0 → 0.2.0';
const NEWER = 'moor: the running daemon is 0.2.0, newer than this moor 0.1.0; using it';

async function daemonVersion(state: ReturnType<typeof makeState>): Promise<string | undefined> {
  return (await control(state, 'status'))?.incarnation.version;
}

describe('upgrade handoff', () => {
  it('a newer proxy has an older daemon hand over; no request of the older proxy is lost', async () => {
    const state = makeState({ MOOR_TEST_PACK: '1' });
    const old = new ProxyClient(state, undefined, {}, bins.old);
    await old.initialize();
    expect(await daemonVersion(state)).toBe('0.1.0');
    const oldPid = (await control(state, 'status'))?.incarnation.pid;

    // Work in flight on the 0.1.0 daemon: read-only and not, all shorter than its grace.
    const calls = [
      ...Array.from({ length: 6 }, (_, n) => ({
        id: old.send('tools/call', { name: 'slow_read', arguments: { ms: 1500, label: `r${n}` } }),
        label: `r${n}`,
      })),
      { id: old.send('tools/call', { name: 'slow_write', arguments: { ms: 1500 } }), label: undefined },
    ];
    await waitFor('the calls in flight', async () =>
      ((await control(state, 'status'))?.status?.inFlight ?? 0) >= calls.length ? true : undefined,
    );

    const upgrader = new ProxyClient(state, undefined, {}, bins.new);
    await upgrader.initialize();
    // stderr is its own pipe: the line may trail the answer.
    await upgrader.until('the upgrade line', () => (upgrader.stderr.includes(UPGRADED) ? true : undefined));
    expect(await daemonVersion(state)).toBe('0.2.0');
    expect((await control(state, 'status'))?.incarnation.pid).not.toBe(oldPid);

    for (const { id, label } of calls) {
      const answer = await old.response(id, 20_000);
      expect(answer.error, JSON.stringify(answer)).toBeUndefined();
      if (label) expect(answer.result?.structuredContent).toMatchObject({ label, slept: 1500 });
      else expect(answer.result?.structuredContent).toMatchObject({ slept: 1500 });
      expect(old.responses(id)).toHaveLength(1);
    }

    // Both proxies now talk to the 0.2.0 daemon.
    expect((await old.request('tools/list')).result?.tools).toBeDefined();
    expect((await upgrader.request('tools/list')).result?.tools).toBeDefined();
    await waitFor('both proxies on the new daemon', async () =>
      (await control(state, 'status'))?.status?.connectedClients === 2 ? true : undefined,
    );
    await old.until('the newer-daemon warning', () => (old.stderr.includes(NEWER) ? true : undefined));
    expect(old.stderr.filter((l) => l === NEWER)).toHaveLength(1);
    expect(upgrader.stderr.filter((l) => l === UPGRADED)).toHaveLength(1);

    // An older proxy started afterwards never replaces the newer daemon.
    const newPid = (await control(state, 'status'))?.incarnation.pid;
    const late = new ProxyClient(state, undefined, {}, bins.old);
    await late.initialize();
    expect((await late.request('tools/list')).result?.tools).toBeDefined();
    await late.until('the newer-daemon warning', () => (late.stderr.length > 0 ? true : undefined));
    expect(late.stderr).toEqual([NEWER]);
    expect((await control(state, 'status'))?.incarnation).toMatchObject({ pid: newPid, version: '0.2.0' });
  }, 60_000);

  it('a daemon refuses to hand over to a moor whose binary is not newer, and keeps running', async () => {
    const state = makeState();
    await startDaemon(state, ['--detached']);
    const before = (await control(state, 'status'))?.incarnation;
    const own = (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(before?.version).toBe(own);
    // Whatever version the hello claims, the binary's package.json is what counts.
    for (const [binary, version] of [
      [path.join(REPO_ROOT, 'dist/cli/main.js'), own],
      [bins.old, '0.1.0'],
    ] as const) {
      const outcome = await connectDaemon(paths(state).socket, {
        moor: HELLO_VERSION,
        control: 'handoff',
        version: '99.0.0',
        binary,
      });
      expect(outcome).toEqual({
        kind: 'refused',
        code: 'HANDOFF_REFUSED',
        message: `moor ${version} is not newer than this daemon (${own})`,
      });
    }
    expect((await control(state, 'status'))?.incarnation).toEqual(before);
  });

  it('a fake handoff (a claimed version, no provable binary) leaves the daemon and its HTTP serving', async () => {
    const state = makeState();
    await startDaemon(state, ['--detached', '--http', '127.0.0.1:0', '--no-token']);
    const before = await control(state, 'status');
    const url = before?.status?.httpUrl ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // A newer copy anyone may rewrite proves nothing: another user could have planted it.
    const planted = path.join(path.dirname(path.dirname(path.dirname(bins.new))), 'package.json');
    const mode = fs.statSync(planted).mode & 0o777;
    fs.chmodSync(planted, 0o666);
    try {
      const hellos: Array<[Record<string, unknown>, string]> = [
        [{ version: '99.0.0' }, 'moor 99.0.0 names no binary to verify its version'],
        [
          { version: '99.0.0', binary: '/nonexistent/dist/cli/main.js' },
          'cannot verify the moor asking to take over: /nonexistent/dist/cli/main.js cannot be read',
        ],
        [
          { version: '99.0.0', binary: bins.new },
          `cannot verify the moor asking to take over: ${planted} may be written by other users`,
        ],
      ];
      for (const [fields, message] of hellos) {
        const outcome = await connectDaemon(paths(state).socket, {
          moor: HELLO_VERSION,
          control: 'handoff',
          ...fields,
        } as Parameters<typeof connectDaemon>[1]);
        expect(outcome.kind).toBe('refused');
        if (outcome.kind === 'refused') {
          expect(outcome.code).toBe('HANDOFF_REFUSED');
          expect(outcome.message.startsWith(message), outcome.message).toBe(true);
        }
      }
    } finally {
      fs.chmodSync(planted, mode);
    }
    expect((await control(state, 'status'))?.incarnation).toEqual(before?.incarnation);
    const health = await fetch(url.replace(/\/mcp$/, '/healthz'));
    expect(health.status).toBe(200);
  });
});
