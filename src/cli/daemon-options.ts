/**
 * Commander options for `moor daemon run|start|restart`, derived from the
 * one flags table (src/protocol/daemon-flags.ts). A value that fails its
 * check is reported the way commander reports any bad option value.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DAEMON_FLAG_SPECS, flagHelp, readFlagValue, wholeNumber } from '../app/daemon/daemon-flags.js';
import type { DaemonFlagSpec } from '../protocol/daemon-flags.js';

function checked<T>(read: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return read(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

function option(spec: DaemonFlagSpec): Option {
  const flags = `${spec.short ? `-${spec.short}, ` : ''}--${spec.name}${spec.value ? ` ${spec.value}` : ''}`;
  const made = new Option(flags, flagHelp(spec));
  const read = checked((value: string) => readFlagValue(spec, value));
  if (spec.repeatable)
    return made.argParser((value: string, previous: unknown[] = []) => [...previous, read(value)]);
  if (spec.kind === 'whole' || spec.kind === 'address') return made.argParser(read);
  return made;
}

/** The flags `run` takes (`start` and `restart` take all but the run-only ones). */
export function addDaemonRunOptions(command: Command, which: 'run' | 'start'): Command {
  for (const spec of DAEMON_FLAG_SPECS) {
    if (which !== 'run' && spec.runOnly) continue;
    command.addOption(option(spec));
    // Commander defaults a lone `--no-x` to true; the table's flags are undefined when not given.
    if (spec.negated) command.setOptionValueWithSource(spec.key, undefined, 'default');
  }
  return command;
}

/** A whole-number option parser for flags outside the table (`--timeout-ms`). */
export function wholeNumberOption(flag: string, min: number): (value: string) => number {
  return checked((value: string) => wholeNumber(flag, value, min));
}
