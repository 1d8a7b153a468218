/**
 * The built daemon refusing to start on an unusable or untrusted state dir, a
 * planted log symlink or a corrupt store (one line, an exit code, no stack,
 * nothing touched), and taking over a lock whose pid is some other process.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanupAll,
  control,
  makeState,
  paths,
  runCli,
  startDaemon,
  type TestState,
} from '../daemon/harness.js';

afterEach(cleanupAll);

const mounts: string[] = [];
afterEach(() => {
  for (const dir of mounts.splice(0)) execFileSync('umount', [dir]);
});

/** A read-only tmpfs over a fresh dir (root with CAP_SYS_ADMIN); undefined where it cannot be mounted. */
function readOnlyDir(state: TestState): string | undefined {
  const dir = path.join(state.dir, 'ro');
  fs.mkdirSync(dir, { mode: 0o700 });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  mounts.push(dir);
  return dir;
}

/** One `moor: …` line and nothing else: no stack trace, no second report. */
function expectOneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^moor: /);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

describe('daemon run on a state dir it cannot use', () => {
  it('a read-only state dir: one line naming the path and EROFS, exit 4', async (context) => {
    const state = makeState();
    const dir = readOnlyDir(state);
    if (dir === undefined) return context.skip('cannot mount a read-only tmpfs here (needs root)');
    for (const stateDir of [dir, path.join(dir, 'moor')]) {
      const run = await runCli(state, ['daemon', 'run'], { MOOR_STATE_DIR: stateDir });
      expect(run.code).toBe(4);
      const line = expectOneLine(run.stderr);
      expect(line).toContain(dir);
      expect(line).toContain('read-only file system (EROFS)');
      expect(line).toContain('MOOR_STATE_DIR');
    }
  });

  it('a world-writable state dir is refused (exit 4) and nothing is created in it', async () => {
    // The test's own state dir, so the harness would stop a daemon that wrongly started there.
    const state = makeState();
    const dir = state.dir;
    fs.chmodSync(dir, 0o777);
    const run = await runCli(state, ['daemon', 'run']);
    expect(run.code).toBe(4);
    expect(expectOneLine(run.stderr)).toContain(`chmod 700 ${dir}`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a daemon.log planted as a symlink: the daemon refuses and the target is untouched', async () => {
    const state = makeState();
    const target = path.join(state.dir, 'victim.txt');
    fs.writeFileSync(target, 'precious\n');
    fs.symlinkSync(target, paths(state).log);
    const run = await runCli(state, ['daemon', 'run']);
    expect(run.code).not.toBe(0);
    const line = expectOneLine(run.stderr);
    expect(line).toContain(paths(state).log);
    expect(line).toContain('symbolic link');
    expect(fs.readFileSync(target, 'utf8')).toBe('precious\n');
    expect(fs.existsSync(paths(state).socket)).toBe(false);
  });
});

describe('daemon run on a corrupt store', () => {
  it('reports it once, leaves the file untouched and records why for a proxy', async () => {
    const state = makeState();
    const garbage = Buffer.from('this is not an sqlite database, not at all'.repeat(200));
    fs.writeFileSync(paths(state).database, garbage);
    const run = await runCli(state, ['daemon', 'run']);
    expect(run.code).not.toBe(0);
    const line = expectOneLine(run.stderr);
    expect(line).toContain(paths(state).database);
    expect(line).toContain('--reset-store');
    expect(run.stderr).not.toContain('sonic boom');
    expect(fs.readFileSync(paths(state).database).equals(garbage)).toBe(true);
    const refusal = JSON.parse(fs.readFileSync(paths(state).startRefusal, 'utf8'));
    expect(refusal).toMatchObject({
      code: 'STORE_CORRUPT',
      message: expect.stringContaining('--reset-store'),
    });
    expect(fs.readdirSync(state.dir).filter((f) => f.includes('corrupt'))).toEqual([]);
  });
});

describe('a lock naming a live process that is not a daemon', () => {
  it('is taken over: daemon run serves and daemon status agrees', async () => {
    const state = makeState();
    // `exec -a fake-daemon sleep 120`; argv0 sets the command line before exec, so no race with it.
    const fake = spawn('sleep', ['120'], { argv0: 'fake-daemon', stdio: 'ignore' });
    state.pids.add(fake.pid as number);
    await new Promise((resolve) => fake.once('spawn', resolve));
    fs.writeFileSync(paths(state).lock, `${fake.pid}\n`, { mode: 0o600 });
    expect(fs.readFileSync(`/proc/${fake.pid}/cmdline`, 'utf8')).toContain('fake-daemon');

    const { pid } = await startDaemon(state);
    expect(pid).not.toBe(fake.pid);
    expect(fs.readFileSync(paths(state).lock, 'utf8').trim()).toBe(String(pid));
    const status = await runCli(state, ['daemon', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, incarnation: { pid } });

    // And the real holder keeps it: a second detached `run` loses to it.
    const second = await runCli(state, ['daemon', 'run', '--detached']);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`already running for ${state.dir} (pid ${pid})`);
    expect((await control(state, 'status'))?.incarnation.pid).toBe(pid);
    fake.kill();
  });
});
