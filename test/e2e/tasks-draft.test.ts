/**
 * draft_decision against a real daemon with --allow-writes, on a copy of the
 * e2e workspace: as a task (input_required → tasks/update → completed) and
 * synchronously on 2026-07-28 (input_required with a sealed requestState,
 * then the retry with the answers), over HTTP; absent without --allow-writes.
 * (The 2025 elicitation path is in tasks-legacy.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { killAll, removeStateDirs, rpc, startDaemon, tempState, until } from '../tasks/daemon-helpers.js';

const copies: string[] = [];
afterEach(killAll);
afterAll(() => {
  removeStateDirs();
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

function workspaceCopy(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-draft-ws-')));
  copies.push(dir);
  fs.cpSync(E2E_WORKSPACE, dir, { recursive: true });
  return dir;
}

const ACCEPT = { draft: { action: 'accept', content: { confirm: true, context: 'Reads dominate.' } } };

describe('draft_decision', () => {
  it('is absent from tools/list without --allow-writes and present with it', async () => {
    const without = await startDaemon(tempState(), ['-w', workspaceCopy()]);
    const names = async (url: string) =>
      (((await rpc(url, 'tools/list', {})).result?.tools ?? []) as Array<{ name: string }>).map(
        (t) => t.name,
      );
    const plain = await names(without.url);
    expect(plain).not.toContain('draft_decision');
    expect(plain).toContain('check_decisions');
    const writable = workspaceCopy();
    const withWrites = await startDaemon(tempState(), ['-w', writable, '--allow-writes', writable]);
    const listed = await names(withWrites.url);
    expect(listed).toContain('draft_decision');
    expect(listed).toEqual([...listed].sort());
  });

  it('as a task: asks through input_required, resumes on tasks/update, writes the next record', async () => {
    const ws = workspaceCopy();
    const daemon = await startDaemon(tempState(), ['-w', ws, '--allow-writes', ws]);
    const created = await rpc(daemon.url, 'tools/call', {
      name: 'draft_decision',
      arguments: { title: 'Use Redis' },
    });
    expect(created.result?.resultType).toBe('task');
    const taskId = created.result?.taskId as string;
    const waiting = await until(daemon.url, taskId, ['input_required']);
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['draft']);
    const updated = await rpc(daemon.url, 'tasks/update', { taskId, inputResponses: ACCEPT });
    expect(updated.error).toBeUndefined();
    const done = await until(daemon.url, taskId, ['completed']);
    const structured = (done.result as { structuredContent: Record<string, unknown> }).structuredContent;
    expect(structured).toMatchObject({ created: true, id: '0006', path: 'docs/decisions/0006-use-redis.md' });
    const text = fs.readFileSync(path.join(ws, 'docs/decisions/0006-use-redis.md'), 'utf8');
    expect(text).toContain('Reads dominate.');
    expect(text).toMatch(/status: proposed/);
  });

  it('synchronously on 2026-07-28: input_required with a sealed requestState, then the retry writes', async () => {
    const ws = workspaceCopy();
    const daemon = await startDaemon(tempState(), ['-w', ws, '--allow-writes', ws]);
    const first = await rpc(
      daemon.url,
      'tools/call',
      { name: 'draft_decision', arguments: { title: 'Adopt OpenTelemetry' } },
      { declare: false },
    );
    expect(first.error).toBeUndefined();
    expect(first.result?.resultType).toBe('input_required');
    expect(Object.keys(first.result?.inputRequests as object)).toEqual(['draft']);
    const requestState = first.result?.requestState as string;
    expect(typeof requestState).toBe('string');
    expect(fs.readdirSync(path.join(ws, 'docs/decisions'))).toHaveLength(5);
    // A tampered state is refused before anything runs.
    const tampered = await rpc(
      daemon.url,
      'tools/call',
      {
        name: 'draft_decision',
        arguments: { title: 'Adopt OpenTelemetry' },
        inputResponses: ACCEPT,
        requestState: `${requestState.slice(0, -2)}xx`,
      },
      { declare: false },
    );
    expect(tampered.error?.code).toBe(-32602);
    const retry = await rpc(
      daemon.url,
      'tools/call',
      {
        name: 'draft_decision',
        arguments: { title: 'Adopt OpenTelemetry' },
        inputResponses: ACCEPT,
        requestState,
      },
      { declare: false },
    );
    expect(retry.error).toBeUndefined();
    expect(retry.result?.structuredContent).toMatchObject({
      created: true,
      path: 'docs/decisions/0006-adopt-opentelemetry.md',
    });
    expect(fs.existsSync(path.join(ws, 'docs/decisions/0006-adopt-opentelemetry.md'))).toBe(true);
  });
});
