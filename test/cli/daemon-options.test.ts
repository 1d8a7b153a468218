/**
 * Commander's options for `moor daemon run|start` come from the same table
 * as the fast parser: both read one command line the same way.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseDaemonRunArgv } from '../../src/app/daemon/daemon-flags.js';
import { addDaemonRunOptions } from '../../src/cli/daemon-options.js';
import { DAEMON_RUN_FLAGS } from '../../src/protocol/daemon-flags.js';

function commanderFlags(which: 'run' | 'start', argv: string[]): Record<string, unknown> {
  let seen: Record<string, unknown> = {};
  const program = new Command('moor').exitOverride();
  addDaemonRunOptions(program.command(which), which)
    .exitOverride()
    .action((flags: Record<string, unknown>) => {
      seen = flags;
    });
  program.parse([which, ...argv], { from: 'user' });
  return seen;
}

describe('daemon run options in commander', () => {
  it("name each flag's property as the table does", () => {
    const command = addDaemonRunOptions(new Command('run'), 'run');
    expect(command.options.map((o) => o.attributeName())).toEqual(DAEMON_RUN_FLAGS.map((f) => f.key));
  });

  it('parse a command line as the fast parser does', () => {
    const argv = [
      '-w',
      '/srv/repo',
      '--max-in-flight',
      '3',
      '--grace-ms',
      '0',
      '--http',
      '[::1]:0',
      '--allow-root',
      '/a',
      '--allow-root',
      '/b',
      '--pack',
      'conformance',
      '--allow-writes',
      '/srv/repo',
      '--max-parked',
      '2',
      '--detached',
    ];
    const fast = Object.fromEntries(
      Object.entries(parseDaemonRunArgv(argv)).filter(([, v]) => v !== undefined),
    );
    expect(commanderFlags('run', argv)).toEqual(fast);
  });

  it('leave the run-only flags out of start', () => {
    expect(() => commanderFlags('start', ['--detached'])).toThrow(/unknown option '--detached'/);
  });

  it('refuse a value out of bounds with the same message', () => {
    expect(() => commanderFlags('start', ['--max-in-flight', '0'])).toThrow(
      /--max-in-flight must be a whole number ≥ 1, got 0/,
    );
  });
});
