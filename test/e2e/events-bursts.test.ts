/**
 * Bursts of writes through the built binary, with the official SDK client:
 * a subscribed decision rewritten 20 times in a tight loop (truncate, then
 * write, as `fs.writeFileSync` does), saved by write-to-temp-then-rename, is
 * one `resources/updated` per burst and no list change of its own, on direct
 * stdio, through the proxy and on HTTP listen streams, in both eras.
 *
 * Each burst ends with a marker record added (or removed again): its
 * `list_changed` is announced at the end of a burst, so it is the fence
 * after which nothing more of the burst can arrive. A truncated file taken
 * for a removal shows up as a missing update or a second list change.
 * Through the proxy the fence can come early (its check of an earlier push
 * read the list after this burst's marker moved), so the next burst joins
 * this one at the daemon and the marker is gone and back within it: the
 * daemon still tells the list change, because the proxy read the list while
 * the marker was gone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpSuite } from '../helpers/http-suite.js';
import { connectHttp, connectStdio } from '../helpers/sdk-client.js';
import { until } from '../helpers/until.js';
import { authHeaders, type Daemon, startDaemon, tempState } from '../tasks/daemon-helpers.js';

const URI = 'decision:///0001-first.md';
const BURSTS = 20;

function workspace(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bursts-')));
  fs.mkdirSync(path.join(root, '.git'));
  fs.mkdirSync(path.join(root, 'docs/decisions'), { recursive: true });
  fs.writeFileSync(path.join(root, 'docs/decisions/0001-first.md'), record('First', 'one'));
  fs.writeFileSync(path.join(root, 'docs/decisions/0002-second.md'), record('Second', 'two'));
  fs.writeFileSync(path.join(root, 'docs/decisions/0003-third.md'), record('Third', 'three'));
  return root;
}

function record(title: string, body: string): string {
  return `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n`;
}

type Save = (file: string, text: string) => void;
const tightLoop: Save = (file, text) => {
  for (let i = 0; i < 20; i++) fs.writeFileSync(file, text);
};
const renameSave: Save = (file, text) => {
  // An editor's save: the new content under a temporary name, renamed over the file, its mode set.
  const temp = `${file}.tmp~`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
  fs.chmodSync(file, 0o644);
};

let daemon: Daemon;
let state: string;
const roots: string[] = [];
const clients = httpSuite(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

beforeAll(async () => {
  state = tempState('moor-bursts-e2e-');
  daemon = await startDaemon(state, []);
}, 20_000);

type Seen = string[];

function record2(client: Client): Seen {
  const seen: Seen = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.push(`updated ${n.params.uri}`);
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    seen.push('list_changed');
  });
  return seen;
}

/** Runs BURSTS bursts of `save` on the subscribed file; each must be one update, then the marker's list change. */
async function bursts(client: Client, root: string, seen: Seen, save: Save): Promise<void> {
  // The subscribed record as it stands before the first burst.
  await client.readResource({ uri: URI });
  const file = path.join(root, 'docs/decisions/0001-first.md');
  const marker = path.join(root, 'docs/decisions/0009-marker.md');
  for (let i = 0; i < BURSTS; i++) {
    save(file, record('First', `burst ${i} `.repeat(40)));
    if (i % 2 === 0) fs.writeFileSync(marker, record('Marker', `burst ${i}`));
    else fs.rmSync(marker);
    await until(() => seen.filter((s) => s === 'list_changed').length > i, 10_000);
  }
  const expected = Array.from({ length: BURSTS }, () => [`updated ${URI}`, 'list_changed']).flat();
  expect(seen).toEqual(expected);
}

async function stdioClient(mode: 'legacy' | 'modern', root: string, direct: boolean): Promise<Client> {
  const args = direct ? ['stdio', '--direct', '-w', root] : ['stdio', '-w', root];
  const client = await connectStdio(mode, args, { MOOR_STATE_DIR: state });
  clients.push(client);
  return client;
}

async function subscribe(client: Client, mode: 'legacy' | 'modern'): Promise<void> {
  if (mode === 'legacy') await client.subscribeResource({ uri: URI });
  else await client.listen({ resourceSubscriptions: [URI], resourcesListChanged: true });
}

const saves: Array<[string, Save]> = [
  ['tight-loop truncating rewrites', tightLoop],
  ['write-to-temp-then-rename saves', renameSave],
];

describe.each(saves)('%s: one update per burst, no list change of its own', (_name, save) => {
  for (const mode of ['legacy', 'modern'] as const) {
    for (const direct of [true, false]) {
      it(`${direct ? 'direct stdio' : 'through the proxy'}, ${mode} era`, async () => {
        const root = workspace();
        roots.push(root);
        const client = await stdioClient(mode, root, direct);
        const seen = record2(client);
        await subscribe(client, mode);
        await bursts(client, root, seen, save);
      }, 60_000);
    }
  }

  it('on an HTTP listen stream', async () => {
    const root = workspace();
    roots.push(root);
    const client = await connectHttp('modern', daemon.url, {
      ...authHeaders(daemon.url),
      'moor-workspace': root,
      'moor-session': `bursts-${path.basename(root)}`,
    });
    clients.push(client);
    const seen = record2(client);
    const sub = await client.listen({ resourceSubscriptions: [URI], resourcesListChanged: true });
    await bursts(client, root, seen, save);
    await sub.close();
  }, 60_000);
});

describe('git checkout of a branch that changes one record and renames another', () => {
  for (const direct of [true, false]) {
    it(`is one update for the changed record and one list change, each way (${direct ? 'direct stdio' : 'through the proxy'})`, async () => {
      const root = workspace();
      roots.push(root);
      fs.rmSync(path.join(root, '.git'), { recursive: true });
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
          cwd: root,
          stdio: 'ignore',
        });
      git('init', '-q', '-b', 'main');
      git('add', '.');
      git('commit', '-qm', 'first');
      git('checkout', '-qb', 'other');
      fs.writeFileSync(
        path.join(root, 'docs/decisions/0001-first.md'),
        record('First', 'on the other branch'),
      );
      git('mv', 'docs/decisions/0002-second.md', 'docs/decisions/0004-second.md');
      git('commit', '-qam', 'other');
      git('checkout', '-q', 'main');

      const client = await stdioClient('legacy', root, direct);
      const seen = record2(client);
      await subscribe(client, 'legacy');
      await client.readResource({ uri: URI });
      git('checkout', '-q', 'other');
      await until(() => seen.includes('list_changed'), 10_000);
      git('checkout', '-q', 'main');
      await until(() => seen.filter((s) => s === 'list_changed').length === 2, 10_000);
      expect(seen).toEqual([`updated ${URI}`, 'list_changed', `updated ${URI}`, 'list_changed']);
    }, 30_000);
  }
});
