/**
 * `moor decisions new` and `moor decisions index`: the commands that write
 * into the decision folder (or check what was written there).
 */
import { MoorError } from '../errors.js';
import { defineCommand } from './command-table.js';
import { app, COMMON, type CommonOptions } from './decisions-shared.js';
import { fail, printToolResult } from './output.js';
import { writeOut } from './stdout.js';

export const newCommand = defineCommand<CommonOptions & { against?: string; context?: string; log?: string }>(
  {
    name: 'new',
    description: 'write a new proposed decision record with a number no branch uses yet',
    argument: { name: '<title>', description: 'the decision in a few words, e.g. "Use SQLite for storage"' },
    options: [
      ...COMMON,
      { flags: '--context <text>', description: 'why a decision is needed (default: "To be written.")' },
      {
        flags: '--against <ref>',
        description: 'also skip every number this git revision (e.g. origin/main) uses',
      },
      {
        flags: '--log <name>',
        description: 'the decision log for the record (a monorepo with one per package)',
      },
    ],
    run: async (title, options) => {
      try {
        const { newDecisionLocally, resolveWorkspace } = await app();
        printToolResult(
          await newDecisionLocally(resolveWorkspace(options), {
            title: title as string,
            context: options.context,
            against: options.against,
            log: options.log,
          }),
          options.json === true,
        );
      } catch (error) {
        fail(error);
      }
    },
  },
);

export const indexCommand = defineCommand<CommonOptions & { write?: string; check?: string }>({
  name: 'index',
  description: 'the decisions as a Markdown table; --write keeps it in a file, --check says when it is stale',
  options: [
    ...COMMON,
    {
      flags: '--write <file>',
      description: 'put the table between the index markers of FILE (appended when absent)',
    },
    { flags: '--check <file>', description: 'exit 1 and print the diff when the table in FILE is stale' },
  ],
  run: async (_, options) => {
    try {
      if (options.write !== undefined && options.check !== undefined)
        throw new MoorError('OPTION_CONFLICT', 'index takes --write FILE or --check FILE, not both');
      const { indexLocally, resolveWorkspace } = await app();
      const mode =
        options.write !== undefined
          ? { kind: 'write' as const, file: options.write }
          : options.check !== undefined
            ? { kind: 'check' as const, file: options.check }
            : { kind: 'print' as const };
      const outcome = await indexLocally(resolveWorkspace(options), mode);
      writeOut(outcome.text);
      if (outcome.stale) process.exitCode = 1;
    } catch (error) {
      fail(error);
    }
  },
});
