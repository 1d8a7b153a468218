/**
 * One workspace rule at every door of a real daemon running as root (these
 * tests run as root): the hello (`moor stdio --workspace`), connect_workspace
 * (its path and its decisions folder), the HTTP Moor-Workspace header, the
 * daemon's own --workspace served to a request that names none, and the
 * hello checked against --allow-root. Every spelling of a system folder is
 * caught on its real path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio } from '../helpers/sdk-client.js';
import { toolText } from '../helpers/session-tools.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { authHeaders, killAll, startDaemon, tempState } from '../tasks/daemon-helpers.js';

const copies = new WorkspaceCopies('moor-rule-e2e-');
const clients: Client[] = [];
const extra: string[] = [];
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await killAll();
  copies.removeAll();
  for (const dir of extra) fs.rmSync(dir, { recursive: true, force: true });
});

const SYSTEM = '/etc is a system folder: the daemon runs as root and never serves one as a workspace.';

function linkToEtc(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-rule-link-')));
  extra.push(dir);
  fs.symlinkSync('/etc', path.join(dir, 'etc'));
  return path.join(dir, 'etc');
}

describe.skipIf(process.getuid?.() !== 0)('the workspace rule at every door (root daemon)', () => {
  it('connect_workspace refuses every spelling of a system folder, and a foreign decisions folder', async () => {
    const state = tempState('moor-rule-');
    await startDaemon(state);
    const client = await connectStdio('legacy', ['stdio', '--workspace', copies.copy()], {
      MOOR_STATE_DIR: state,
    });
    clients.push(client);
    for (const [given, real] of [
      ['/etc', '/etc'],
      ['/proc', '/proc'],
      ['/', '/'],
      ['/root', '/root'],
      ['/home', '/home'],
      ['//etc', '/etc'],
      ['/./etc/', '/etc'],
      [linkToEtc(), '/etc'],
      ['/proc/self/root', '/'],
    ] as const) {
      if (!fs.existsSync(given)) continue;
      const result = await client.callTool({ name: 'connect_workspace', arguments: { path: given } });
      expect(result.isError, given).toBe(true);
      expect(toolText(result as never), given).toContain(`${real} is a system folder`);
    }
    // Another user's 0600 record, named as the decisions folder of a workspace of one's own.
    const foreign = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-rule-private-')));
    extra.push(foreign);
    fs.writeFileSync(path.join(foreign, '0001-secret.md'), '# Secret\n', { mode: 0o600 });
    fs.chownSync(path.join(foreign, '0001-secret.md'), 4242, 4242);
    fs.chownSync(foreign, 4242, 4242);
    fs.chmodSync(foreign, 0o700);
    const stolen = await client.callTool({
      name: 'connect_workspace',
      arguments: { path: copies.copy(), decisions: foreign },
    });
    expect(stolen.isError).toBe(true);
    expect(toolText(stolen as never)).toContain(`decisions ${foreign} is not owned by the daemon's user`);
    const sys = await client.callTool({
      name: 'connect_workspace',
      arguments: { path: copies.copy(), decisions: '/proc/self/root/etc' },
    });
    expect(toolText(sys as never)).toContain(`decisions ${SYSTEM}`);
  });

  it('a hello naming a system folder is refused', async () => {
    const state = tempState('moor-rule-');
    await startDaemon(state);
    await expect(
      connectStdio('legacy', ['stdio', '--workspace', linkToEtc()], { MOOR_STATE_DIR: state }),
    ).rejects.toThrow(`the daemon refused this session: workspace ${SYSTEM}`);
  });

  it('a hello outside --allow-root is refused; inside it is served', async () => {
    const state = tempState('moor-rule-');
    const allowed = copies.copy();
    await startDaemon(state, ['--allow-root', allowed]);
    const outside = copies.copy();
    await expect(
      connectStdio('legacy', ['stdio', '--workspace', outside], { MOOR_STATE_DIR: state }),
    ).rejects.toThrow(`workspace ${outside} is outside the daemon's allowed roots (${allowed})`);
    const client = await connectStdio('legacy', ['stdio', '--workspace', allowed], { MOOR_STATE_DIR: state });
    clients.push(client);
    expect((await client.callTool({ name: 'list_superseded', arguments: {} })).isError).toBeUndefined();
  });

  it('Moor-Workspace and the daemon’s own --workspace are held to the same rule over HTTP', async () => {
    const state = tempState('moor-rule-');
    const daemon = await startDaemon(state, ['--workspace', '/etc']);
    const call = (headers: Record<string, string>) =>
      fetch(daemon.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...authHeaders(daemon.url),
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_superseded', arguments: {} },
        }),
      });
    for (const workspace of ['//etc', '/./etc/', linkToEtc()]) {
      const refused = await call({ 'moor-workspace': workspace });
      expect(refused.status, workspace).toBe(400);
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: `Moor-Workspace ${SYSTEM}` },
      });
    }
    // No Moor-Workspace: the daemon's own --workspace /etc, which a root daemon serves to nobody.
    const fallback = await call({});
    const text = await fallback.text();
    expect(text).toContain(`"error":{"code":-32602,"message":"workspace ${SYSTEM}"}`);
  });
});
