/**
 * The restart budget: a daemon that never comes is started at most
 * RESTART_BUDGET times within the window; pending requests get a clear error
 * and later ones are answered at once, never hung, never looped forever.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/protocol/state-dir.js';
import { RESTART_BUDGET } from '../../src/proxy/supervisor.js';
import { createTestRelay } from './relay-harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('Relay restart budget', () => {
  it('gives up after the budget with clear errors, and answers later requests at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-relay-'));
    dirs.push(dir);
    let spawns = 0;
    const { relay, input, lines, warnings } = createTestRelay({
      paths: statePaths(dir),
      workspace: dir,
      sessionKey: 'moor-test-relay-key',
      spawn: () => {
        spawns += 1;
        return undefined;
      },
      startWaitMs: 100,
    });
    relay.start();
    input.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    const deadline = Date.now() + 10_000;
    while (!lines.some((l) => l.id === 1) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(lines.find((l) => l.id === 1)?.error).toMatchObject({
      code: -32051,
      message: expect.stringMatching(/did not answer/),
    });
    while (!warnings.some((w) => /could not be started/.test(w)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(spawns).toBe(RESTART_BUDGET);
    const started = Date.now();
    input.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    while (!lines.some((l) => l.id === 2) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(lines.find((l) => l.id === 2)?.error?.message).toMatch(
      /could not be started \(5 attempts in 30 s\)/,
    );
    expect(spawns).toBe(RESTART_BUDGET);
    input.end();
  });
});
