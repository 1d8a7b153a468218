import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, isAlive, makeState, runCli, type TestState } from '../daemon/harness.js';
import { olderAndNewerCopies } from '../helpers/versioned-copy.js';

afterEach(cleanupAll);

const bins = olderAndNewerCopies();

const REFUSAL =
  'moor: the running daemon is 0.2.0, newer than this moor 0.1.0; refusing to replace it (use --force)\n';

/** Runs one copy's CLI to completion in the test's state dir. */
const run = (state: TestState, bin: string, args: readonly string[]) => runCli(state, args, {}, bin);

async function incarnation(state: TestState) {
  return (await control(state, 'status'))?.incarnation;
}

describe('an older moor never silently replaces a newer daemon', () => {
  it('restart and start refuse without --force; the newer daemon keeps its pid', async () => {
    const state = makeState();
    const started = await run(state, bins.new, ['daemon', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const before = await incarnation(state);
    expect(before?.version).toBe('0.2.0');

    for (const command of ['restart', 'start']) {
      const refused = await run(state, bins.old, ['daemon', command]);
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
    expect((await run(state, bins.new, ['daemon', 'start'])).code).toBe(0);
    const newer = await incarnation(state);
    expect(newer?.version).toBe('0.2.0');

    const forcedStart = await run(state, bins.old, ['daemon', 'start', '--force']);
    expect(forcedStart.code, forcedStart.stderr).toBe(0);
    expect(forcedStart.stderr).toBe('');
    const older = await incarnation(state);
    expect(older?.version).toBe('0.1.0');
    expect(older?.pid).not.toBe(newer?.pid);
    expect(isAlive(newer?.pid ?? 0)).toBe(false);

    // A newer moor's restart of an older daemon is an upgrade: never refused.
    const upgraded = await run(state, bins.new, ['daemon', 'restart']);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    const again = await incarnation(state);
    expect(again?.version).toBe('0.2.0');

    const forcedRestart = await run(state, bins.old, ['daemon', 'restart', '--force']);
    expect(forcedRestart.code, forcedRestart.stderr).toBe(0);
    const replaced = await incarnation(state);
    expect(replaced?.version).toBe('0.1.0');
    expect(replaced?.pid).not.toBe(again?.pid);
    expect(isAlive(again?.pid ?? 0)).toBe(false);
  }, 60_000);
});
