/**
 * A command table's entries as commander subcommands: the help, and the
 * error messages for command lines the fast parser leaves to commander.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CommandOptions, CommandSpec, OptionSpec } from './command-table.js';

/** A value check's failure, reported the way commander reports any bad option value. */
function checked(parse: (value: string) => unknown): (value: string) => unknown {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

function optionOf(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices !== undefined) option.choices(spec.choices);
  if (spec.parse !== undefined) option.argParser(checked(spec.parse));
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  return option;
}

export function addTableCommand(parent: Command, spec: CommandSpec): Command {
  const command = parent.command(spec.name);
  if (spec.argument !== undefined) command.argument(spec.argument.name, spec.argument.description);
  for (const option of spec.options) command.addOption(optionOf(option));
  return command
    .description(spec.description)
    .action((...args: unknown[]) =>
      spec.argument === undefined
        ? spec.run(undefined, args[0] as CommandOptions)
        : spec.run(args[0] as string | string[] | undefined, args[1] as CommandOptions),
    );
}
