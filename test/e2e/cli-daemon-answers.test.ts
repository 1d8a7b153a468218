/**
 * One-shot `moor decisions …` asks a running daemon of its own build
 * (src/app/control/one-shot-ask.ts, src/app/daemon/one-shot-answers.ts).
 * The built binary against a real daemon: every command prints the same
 * bytes, on both streams, and exits the same as with MOOR_ASK_DAEMON=off;
 * the daemon really answered (the workspace's room is loaded in it, and is
 * not when the asking is off); a file written just before a command is in
 * its answer (the daemon re-checks the folder, no watcher race); and a
 * request the daemon must not answer (another build, an unknown tool, a
 * workspace that does not exist) is refused with its code, the command then
 * answering in its own process.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HELLO_VERSION, type HelloReply } from '../../src/protocol/hello.js';
import {
  cleanupAll,
  control,
  makeState,
  paths,
  runCli,
  startDaemon,
  type TestState,
} from '../daemon/harness.js';
import { REPO_ROOT } from '../helpers/paths.js';

afterAll(cleanupAll);

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/corpora');
/** Workspaces (the search fixture is a bare decision folder, named with -d as well). */
const WORKSPACES = [
  ...['monorepo', 'mixed', 'wild-log4brains', 'wild-empty'].map((name) => path.join(FIXTURES, name)),
  path.join(REPO_ROOT, 'test/fixtures/e2e/repo'),
  REPO_ROOT,
];
const SEARCH = path.join(FIXTURES, 'search');

/** The commands the daemon answers, and one it hands back (the extras need git): all compared. */
const COMMANDS: ReadonlyArray<readonly string[]> = [
  ['search', 'cache'],
  ['search', 'cache', '--json'],
  ['search', 'kubernetes', '--status', 'accepted', '--limit', '2'],
  ['show', '1'],
  ['show', '9999'],
  ['context', 'src/index.ts', 'services/payments/src/ledger.ts'],
  ['superseded'],
  ['superseded', '--json'],
  ['check'],
  ['check', '--format', 'json'],
  ['check', '--format', 'github'],
  ['check', '--format', 'sarif'],
];

const OFF = { MOOR_ASK_DAEMON: 'off' };

async function loadedRooms(state: TestState): Promise<string[]> {
  const reply = await control(state, 'status');
  return (reply?.status?.rooms ?? []).filter((room) => room.loaded).map((room) => room.root);
}

/** One raw control hello 'one-shot' and the daemon's reply line. */
function askRaw(state: TestState, oneShot: Record<string, unknown>): Promise<HelloReply> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(paths(state).socket);
    let data = '';
    socket.on('error', reject);
    socket.on('connect', () =>
      socket.write(`${JSON.stringify({ moor: HELLO_VERSION, control: 'one-shot', oneShot })}\n`),
    );
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const nl = data.indexOf('\n');
      if (nl < 0) return;
      socket.destroy();
      resolve(JSON.parse(data.slice(0, nl)) as HelloReply);
    });
  });
}

describe('one-shot commands through a running daemon', () => {
  it('print the same bytes and exit the same as in their own process, and the daemon answered them', async () => {
    const state = makeState();
    await startDaemon(state);
    for (const workspace of [...WORKSPACES, SEARCH]) {
      for (const command of COMMANDS) {
        const where = workspace === SEARCH ? ['-w', SEARCH, '-d', SEARCH] : ['-w', workspace];
        const args = ['decisions', ...command, ...where];
        const asked = await runCli(state, args);
        const local = await runCli(state, args, OFF);
        const what = `${command.join(' ')} in ${path.relative(REPO_ROOT, workspace) || '.'}`;
        expect(asked.stdout, what).toBe(local.stdout);
        expect(asked.stderr, what).toBe(local.stderr);
        expect(asked.code, what).toBe(local.code);
      }
    }
    // Every workspace with a decision log was loaded in the daemon by the commands.
    const rooms = await loadedRooms(state);
    for (const workspace of WORKSPACES.filter((w) => !w.endsWith('wild-empty')))
      expect(rooms, workspace).toContain(fs.realpathSync(workspace));
  });

  it('leave the daemon alone with MOOR_ASK_DAEMON=off', async () => {
    const state = makeState();
    await startDaemon(state);
    const run = await runCli(state, ['decisions', 'search', 'cache', '-w', SEARCH, '-d', SEARCH], OFF);
    expect(run.code).toBe(0);
    expect(await loadedRooms(state)).toEqual([]);
  });

  it('answer with a record written just before the command, as a local run does', async () => {
    const state = makeState();
    await startDaemon(state);
    const workspace = fs.mkdtempSync(path.join(state.dir, 'ws-'));
    fs.cpSync(path.join(FIXTURES, 'search'), path.join(workspace, 'docs/decisions'), { recursive: true });
    const search = ['decisions', 'search', 'zanzibarian', '-w', workspace];
    const before = await runCli(state, search);
    expect(before.stdout).toContain('No decision matches "zanzibarian"');
    expect(await loadedRooms(state)).toContain(fs.realpathSync(workspace));
    // Written and asked at once: the daemon's watcher has not necessarily seen it.
    fs.writeFileSync(
      path.join(workspace, 'docs/decisions/0011-zanzibarian-clocks.md'),
      '# 11. Zanzibarian clocks\n\nDate: 2026-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nTime.\n',
    );
    const after = await runCli(state, search);
    expect(after.stdout).toContain('0011-zanzibarian-clocks.md');
    expect(after.stdout).toBe((await runCli(state, search, OFF)).stdout);
    fs.rmSync(path.join(workspace, 'docs/decisions/0011-zanzibarian-clocks.md'));
    const removed = await runCli(state, search);
    expect(removed.stdout).toBe(before.stdout);

    // check keeps what each record's text gives it: a record edited, or a file it links to made, counts at once.
    const record = path.join(workspace, 'docs/decisions/0012-links.md');
    const check = ['decisions', 'check', '--format', 'json', '-w', workspace];
    const brokenLinks = async () => {
      const run = await runCli(state, check);
      expect(run.stdout).toBe((await runCli(state, check, OFF)).stdout);
      const { findings } = JSON.parse(run.stdout) as { findings: Array<{ kind: string; message: string }> };
      return findings.filter((f) => f.kind === 'broken-link').map((f) => f.message);
    };
    fs.writeFileSync(record, '# 12. Links\n\n## Status\n\nAccepted\n\nSee [the plan](../../plan.txt).\n');
    expect(await brokenLinks()).toEqual(['0012 links to ../../plan.txt, which is not in the repository']);
    fs.writeFileSync(path.join(workspace, 'plan.txt'), 'the plan\n');
    expect(await brokenLinks()).toEqual([]);
    fs.writeFileSync(
      record,
      '# 12. Links\n\n## Status\n\nAccepted\n\nSee [the notes](../../the-notes.txt).\n',
    );
    expect(await brokenLinks()).toEqual([
      '0012 links to ../../the-notes.txt, which is not in the repository',
    ]);
  });

  it('are refused what the daemon must not answer, and then answer in their own process', async () => {
    const state = makeState();
    await startDaemon(state);
    const workspace = fs.realpathSync(SEARCH);
    const call = { workspace, decisions: workspace, tool: 'search_decisions', arguments: { query: 'cache' } };
    const other = await askRaw(state, { ...call, build: '0.0.1@/elsewhere/cli/main.js#1' });
    expect(other).toMatchObject({ ok: true, oneShot: { error: { code: 'OTHER_BUILD' } } });
    expect(other.ok && other.oneShot?.result).toBeFalsy();
    const draft = await askRaw(state, { ...call, build: 'x', tool: 'draft_decision' });
    expect(draft).toMatchObject({ ok: false, error: { code: 'HELLO_INVALID' } });
    const relative = await askRaw(state, { ...call, build: 'x', workspace: 'docs' });
    expect(relative).toMatchObject({ ok: false, error: { code: 'HELLO_INVALID' } });
    // Nothing was loaded for a refused request.
    expect(await loadedRooms(state)).toEqual([]);

    // A workspace that is gone: the daemon refuses it, and the command says so in its own words.
    const gone = path.join(state.dir, 'gone');
    const args = ['decisions', 'search', 'cache', '-d', gone, '-w', state.dir];
    const asked = await runCli(state, args);
    const local = await runCli(state, args, OFF);
    expect(asked).toEqual(local);
    expect(asked.code).toBe(1);
  });
});
