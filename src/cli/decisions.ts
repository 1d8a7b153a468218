/**
 * `moor decisions …` in commander: help, and the command lines the fast path
 * leaves to it. The subcommands themselves are decisions-commands.ts's table.
 */
import type { Command } from 'commander';
import { addTableCommand } from './command-table-commander.js';
import { DECISIONS_COMMANDS } from './decisions-commands.js';

export function registerDecisions(program: Command): void {
  const decisions = program.command('decisions').description("query this repository's decision records");
  for (const spec of DECISIONS_COMMANDS) addTableCommand(decisions, spec);
}
