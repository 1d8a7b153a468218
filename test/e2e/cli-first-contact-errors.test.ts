/**
 * What a person sees when a command cannot do what it was asked: a start the
 * daemon refuses (reported as soon as the daemon exits, with its own reason
 * and exit code), every start failure in one line, usage errors in one line
 * with exit 2, and a reader that closes stdout early ending the command
 * quietly with exit 0.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { START_TIMEOUT_MS } from '../../src/app/control/daemon-control.js';
import { cleanupAll, makeState, paths, runCli, startDaemon, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';

afterEach(cleanupAll);

/** One `moor: …` line and nothing else: no stack trace, no usage text. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^moor: /);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

async function timedCli(state: TestState, args: readonly string[]) {
  const started = Date.now();
  const run = await runCli(state, args);
  return { ...run, ms: Date.now() - started };
}

describe('daemon start and restart report a refusal at once', () => {
  for (const command of ['start', 'restart']) {
    it(`daemon ${command} -w /nope: exit 4, the daemon's reason, without waiting out the start timeout`, async () => {
      const state = makeState();
      const run = await timedCli(state, ['daemon', command, '-w', '/nope']);
      expect(run.code).toBe(4);
      expect(oneLine(run.stderr)).toBe(
        'moor: the daemon refuses to start: workspace directory /nope does not exist or is not a directory',
      );
      // Before, it waited the whole START_TIMEOUT_MS and said "did not answer".
      expect(run.ms).toBeLessThan(START_TIMEOUT_MS / 2);
    });
  }

  it('a corrupt store: exit 4, one line naming --reset-store', async () => {
    const state = makeState();
    fs.writeFileSync(paths(state).database, 'not a database\n');
    const run = await timedCli(state, ['daemon', 'start']);
    expect(run.code).toBe(4);
    expect(oneLine(run.stderr)).toMatch(
      /^moor: the daemon refuses to start: the task store .* --reset-store/,
    );
    expect(run.ms).toBeLessThan(START_TIMEOUT_MS / 2);
  });

  it('an untrusted (0777) state dir: exit 4, one line, no MoorError stack', async () => {
    const state = makeState();
    fs.chmodSync(state.dir, 0o777);
    for (const command of ['start', 'restart', 'status']) {
      const run = await runCli(state, ['daemon', command]);
      expect(run.code, command).toBe(command === 'status' ? 3 : 4);
      if (command !== 'status') expect(oneLine(run.stderr)).toContain(`chmod 700 ${state.dir}`);
    }
  });

  it('a read-only state dir: exit 4, one line naming EROFS', async (context) => {
    const state = makeState();
    const dir = path.join(state.dir, 'ro');
    fs.mkdirSync(dir, { mode: 0o700 });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      return context.skip('cannot mount a read-only tmpfs here (needs root)');
    }
    try {
      const run = await runCli(state, ['daemon', 'start'], { MOOR_STATE_DIR: path.join(dir, 'moor') });
      expect(run.code).toBe(4);
      expect(oneLine(run.stderr)).toContain('read-only file system (EROFS)');
    } finally {
      execFileSync('umount', [dir]);
    }
  });

  it('the HTTP port in use: one line naming EADDRINUSE and its exit code, at once', async () => {
    const state = makeState();
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const run = await timedCli(state, ['daemon', 'start', '--http', `127.0.0.1:${port}`]);
      expect(run.code).toBe(1);
      expect(oneLine(run.stderr)).toBe(
        `moor: the daemon could not start: Cannot serve HTTP on 127.0.0.1:${port}: EADDRINUSE`,
      );
      expect(run.ms).toBeLessThan(START_TIMEOUT_MS / 2);
    } finally {
      busy.close();
    }
  });
});

describe('usage errors: one line naming the problem and the help to read, exit 2', () => {
  const cases: ReadonlyArray<[readonly string[], string]> = [
    [['--bogus'], "moor: unknown option '--bogus' (see moor --help)"],
    [
      ['decisions', 'search', '--limit', '0', 'x'],
      "moor: option '-n, --limit <n>' argument '0' is invalid. expected a positive whole number (see moor decisions search --help)",
    ],
    [['daemon', 'start', '--bogus'], "moor: unknown option '--bogus' (see moor daemon start --help)"],
    [['sessions', 'show'], "moor: missing required argument 'prefix' (see moor sessions show --help)"],
    [['frobnicate'], "moor: unknown command 'frobnicate' (see moor --help)"],
  ];
  for (const [args, line] of cases) {
    it(`moor ${args.join(' ')}`, async () => {
      const run = await runCli(makeState(), args);
      expect(run.code).toBe(2);
      expect(oneLine(run.stderr)).toBe(line);
      expect(run.stdout).toBe('');
    });
  }

  it('--help still prints the usage and exits 0', async () => {
    const run = await runCli(makeState(), ['decisions', 'search', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: moor decisions search');
  });
});

/** Runs the CLI with a stdout whose reader is gone before it writes (what `| head -1` leaves behind). */
function withClosedStdout(state: TestState, args: readonly string[]) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [MOOR_BIN, ...args], {
      env: state.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout ends a command quietly with exit 0', () => {
  it('daemon status, sessions list, tasks list, decisions search, --help: 20 times each', async () => {
    const state = makeState();
    await startDaemon(state, ['--detached', '--workspace', E2E_WORKSPACE]);
    const commands = [
      ['daemon', 'status'],
      ['sessions', 'list'],
      ['tasks', 'list'],
      ['decisions', 'search', '-w', path.resolve(E2E_WORKSPACE), 'decision'],
      ['--help'],
    ];
    for (const args of commands) {
      for (let n = 0; n < 20; n++) {
        const run = await withClosedStdout(state, args);
        expect({ args, ...run }).toEqual({ args, code: 0, stderr: '' });
      }
    }
  }, 120_000);
});
