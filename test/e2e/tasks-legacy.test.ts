/**
 * The tasks extension on the 2025 era, through `moor stdio`: advertised in
 * the initialize result only to a client whose initialize declared it; and
 * draft_decision asking a 2025 client through real elicitation (the SDK's
 * legacy shim for input_required).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { killAll, removeStateDirs, startDaemon, TASKS, tempState, track } from '../tasks/daemon-helpers.js';

const copies: string[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await killAll();
});
afterAll(() => {
  removeStateDirs();
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

function workspaceCopy(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-legacy-ws-')));
  copies.push(dir);
  fs.cpSync(E2E_WORKSPACE, dir, { recursive: true });
  return dir;
}

/** One legacy initialize through a fresh `moor stdio`; resolves with its result. */
async function initializeWith(stateDir: string, capabilities: Record<string, unknown>) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [MOOR_BIN, 'stdio', '--workspace', E2E_WORKSPACE],
    { env: { ...process.env, MOOR_STATE_DIR: stateDir }, stdio: 'pipe' },
  );
  track(child);
  const answer = new Promise<Record<string, unknown>>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
      if (message.id === 1 && message.result) resolve(message.result);
    });
  });
  child.stdin.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'legacy-tasks', version: '1' },
      },
    })}\n`,
  );
  const result = await answer;
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin.end();
  await exited;
  return result;
}

describe('tasks on the 2025 era', () => {
  it('advertises the extension in initialize only to a client that declared it', async () => {
    const state = tempState();
    await startDaemon(state, ['-w', E2E_WORKSPACE]);
    const declared = await initializeWith(state, { extensions: { [TASKS]: {} } });
    expect((declared.capabilities as { extensions?: Record<string, unknown> }).extensions).toEqual({
      'io.modelcontextprotocol/skills': {},
      [TASKS]: {},
    });
    const plain = await initializeWith(state, {});
    expect(
      (plain.capabilities as { extensions?: Record<string, unknown> }).extensions?.[TASKS],
    ).toBeUndefined();
  });

  it('draft_decision asks a 2025 client through elicitation, then writes', async () => {
    const ws = workspaceCopy();
    const state = tempState();
    await startDaemon(state, ['-w', ws, '--allow-writes', ws]);
    const client = new Client(
      { name: 'legacy-elicitation', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { confirm: true, context: 'Asked in place.' } };
    });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MOOR_BIN, 'stdio', '--workspace', ws],
        stderr: 'pipe',
        env: { ...(process.env as Record<string, string>), MOOR_STATE_DIR: state },
      }),
    );
    const result = await client.callTool({ name: 'draft_decision', arguments: { title: 'Use Protobuf' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Use Protobuf');
    expect(result.structuredContent).toMatchObject({
      created: true,
      path: 'docs/decisions/0006-use-protobuf.md',
    });
    expect(fs.readFileSync(path.join(ws, 'docs/decisions/0006-use-protobuf.md'), 'utf8')).toContain(
      'Asked in place.',
    );
  });
});
