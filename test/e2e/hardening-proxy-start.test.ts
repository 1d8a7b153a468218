/**
 * `moor stdio` when the daemon cannot be started because of the state dir or
 * the store: the pending request is answered at once with what is wrong and
 * what to do, instead of five start attempts and "retry later" — and
 * `daemon run --reset-store` is the way out of a corrupt store.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, makeState, paths, runCli, startDaemon } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';

afterEach(cleanupAll);

const clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) {
    client.child.kill('SIGKILL');
  }
});

function proxy(env: Record<string, string>): RawClient {
  const client = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '--workspace', E2E_WORKSPACE], env);
  clients.push(client);
  return client;
}

describe('moor stdio on a state dir or store the daemon refuses', () => {
  it('a corrupt moor.db: the request is answered with the daemon’s refusal, naming --reset-store', async () => {
    const state = makeState();
    fs.writeFileSync(paths(state).database, Buffer.from('not an sqlite database '.repeat(100)));
    const client = proxy(state.env);
    const answer = await client.modern('tools/list');
    expect(answer.error?.code).toBe(-32051);
    expect(answer.error?.message).toMatch(/^moor: the daemon refuses to start: /);
    expect(answer.error?.message).toContain('--reset-store');
    // One start attempt, not a spent restart budget.
    expect(client.stderr.join('\n')).not.toContain('could not be started');
    // Retrying cannot help: every later request gets the same answer, and the proxy exits 1 at EOF.
    const again = await client.modern('tools/list');
    expect(again.error?.message).toBe(answer.error?.message);
    expect(await client.close()).toBe(1);
  });

  it('a world-writable state dir: answered with what is wrong with it, and nothing is started', async () => {
    const state = makeState();
    fs.chmodSync(state.dir, 0o777);
    const client = proxy(state.env);
    const answer = await client.modern('tools/list');
    expect(answer.error?.code).toBe(-32051);
    expect(answer.error?.message).toContain(state.dir);
    expect(answer.error?.message).toMatch(/chmod 700|writable/);
    expect(fs.existsSync(paths(state).log)).toBe(false);
    expect(fs.existsSync(paths(state).lock)).toBe(false);
  });

  it('a daemon.log planted as a symlink: the proxy does not write through it', async () => {
    const state = makeState();
    const target = `${state.dir}-precious.txt`;
    fs.writeFileSync(target, 'precious\n');
    fs.symlinkSync(target, paths(state).log);
    const client = proxy(state.env);
    const answer = await client.modern('tools/list');
    expect(answer.error?.code).toBe(-32051);
    expect(answer.error?.message).toContain(paths(state).log);
    expect(fs.readFileSync(target, 'utf8')).toBe('precious\n');
    fs.rmSync(target);
  });
});

describe('daemon run --reset-store', () => {
  it('moves the corrupt store aside with its -wal and -shm, then serves', async () => {
    const state = makeState();
    const db = paths(state).database;
    const garbage = Buffer.from('not an sqlite database '.repeat(100));
    fs.writeFileSync(db, garbage);
    fs.writeFileSync(`${db}-wal`, 'wal');
    const refused = await runCli(state, ['daemon', 'run']);
    expect(refused.code).toBe(4);
    await startDaemon(state, ['--reset-store']);
    const status = await control(state, 'status');
    expect(status.ok).toBe(true);
    const moved = fs.readdirSync(state.dir).filter((f) => f.startsWith('moor.db.corrupt-'));
    expect(moved.some((f) => !f.endsWith('-wal') && !f.endsWith('-shm'))).toBe(true);
    expect(moved.some((f) => f.endsWith('-wal'))).toBe(true);
    const original = moved.find((f) => !f.endsWith('-wal') && !f.endsWith('-shm')) as string;
    expect(fs.readFileSync(`${state.dir}/${original}`).equals(garbage)).toBe(true);
  });
});
