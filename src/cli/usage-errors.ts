/**
 * Commander's own refusals (an unknown option, a missing argument, a value
 * its parser rejects) in moor's words: one line naming the problem and the
 * command's `--help`, exit 2 (a command line moor cannot act on,
 * docs/errors.md). Commander would print the whole usage text and exit 1.
 */
import type { Command, CommanderError } from 'commander';

const EXIT_USAGE = 2;

/** `moor decisions search`: the command's path as a person types it. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Applies to `program` and every subcommand registered so far (call it after registering them all). */
export function reportUsageErrorsInOneLine(program: Command): void {
  const visit = (command: Command) => {
    command.showHelpAfterError(false);
    command.configureOutput({ outputError: () => {} });
    command.exitOverride((error: CommanderError) => exitFor(command, error));
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}

function exitFor(command: Command, error: CommanderError): never {
  // --help, --version, `moor help`: commander printed what was asked for.
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') process.exit(0);
  // A command that needs a subcommand, given none: commander printed its help on stderr.
  if (error.code === 'commander.help') process.exit(EXIT_USAGE);
  const problem = error.message.replace(/^error: /, '').trim();
  process.stderr.write(`moor: ${problem} (see ${commandPath(command)} --help)\n`);
  process.exit(EXIT_USAGE);
}
