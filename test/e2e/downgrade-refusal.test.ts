/**
 * No silent downgrade from the command line: with a 0.2.0 daemon running, a
 * 0.1.0 moor's `daemon restart` and `daemon start` exit 1 with one line
 * naming both versions and leave the newer daemon (same pid) running;
 * `--force` replaces it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, control, isAlive, makeState, type TestState } from '../daemon/harness.js';
import { buildVersionedCopy } from '../helpers/versioned-copy.js';

afterEach(cleanupAll);

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

let oldBin = '';
let newBin = '';
beforeAll(() => {
  oldBin = buildVersionedCopy('0.1.0', copies);
  newBin = buildVersionedCopy('0.2.0', copies);
});

const REFUSAL =
  'moor: the running daemon is 0.2.0, newer than this moor 0.1.0; refusing to replace it (use --force)\n';

/** Runs one copy's CLI to completion in the test's state dir. */
function run(state: TestState, bin: string, args: readonly string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: state.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function incarnation(state: TestState) {
  return (await control(state, 'status'))?.incarnation;
}

describe('an older moor never silently replaces a newer daemon', () => {
  it('restart and start refuse without --force; the newer daemon keeps its pid', async () => {
    const state = makeState();
    const started = await run(state, newBin, ['daemon', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const before = await incarnation(state);
    expect(before?.version).toBe('0.2.0');

    for (const command of ['restart', 'start']) {
      const refused = await run(state, oldBin, ['daemon', command]);
      expect({ command, code: refused.code, stderr: refused.stderr, stdout: refused.stdout }).toEqual({
        command,
        code: 1,
        stderr: REFUSAL,
        stdout: '',
      });
      expect(await incarnation(state)).toMatchObject({ pid: before?.pid, version: '0.2.0' });
    }
  }, 60_000);

  it('start --force and restart --force replace the newer daemon', async () => {
    const state = makeState();
    expect((await run(state, newBin, ['daemon', 'start'])).code).toBe(0);
    const newer = await incarnation(state);
    expect(newer?.version).toBe('0.2.0');

    const forcedStart = await run(state, oldBin, ['daemon', 'start', '--force']);
    expect(forcedStart.code, forcedStart.stderr).toBe(0);
    expect(forcedStart.stderr).toBe('');
    const older = await incarnation(state);
    expect(older?.version).toBe('0.1.0');
    expect(older?.pid).not.toBe(newer?.pid);
    expect(isAlive(newer?.pid ?? 0)).toBe(false);

    // A newer moor's restart of an older daemon is an upgrade: never refused.
    const upgraded = await run(state, newBin, ['daemon', 'restart']);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    const again = await incarnation(state);
    expect(again?.version).toBe('0.2.0');

    const forcedRestart = await run(state, oldBin, ['daemon', 'restart', '--force']);
    expect(forcedRestart.code, forcedRestart.stderr).toBe(0);
    const replaced = await incarnation(state);
    expect(replaced?.version).toBe('0.1.0');
    expect(replaced?.pid).not.toBe(again?.pid);
    expect(isAlive(again?.pid ?? 0)).toBe(false);
  }, 60_000);
});
