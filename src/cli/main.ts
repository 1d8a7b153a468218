#!/usr/bin/env node
/**
 * The moor command line. Parsing and printing only: every answer comes from
 * src/app, which composes the host and the packs.
 */
import { Command } from 'commander';
import { IDENTITY } from '../app/identity.js';
import { registerDecisions } from './decisions.js';
import { registerStdio } from './stdio.js';

const program = new Command('moor')
  .version(IDENTITY.version, '-v, --version')
  .description("moor serves a repository's architecture decision records to coding agents over MCP.")
  .showHelpAfterError()
  .addHelpText(
    'after',
    `
Examples:
  moor stdio --direct                      serve MCP on stdio for the enclosing repository
  moor stdio --direct -w ~/src/app         serve another repository
  moor decisions search "event sourcing"   ranked search
  moor decisions show 7                    decision 7 in full
  moor decisions context src/db/pool.ts    decisions governing a file
  moor decisions check                     corpus problems; exit 1 when there are any`,
  );

registerStdio(program);
registerDecisions(program);

program.parseAsync(process.argv);
