/**
 * `moor decisions …`: the tools' answers for people.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { callToolLocally } from '../app/local.js';
import { resolveWorkspace, type WorkspaceOptions } from '../app/options.js';
import { fail, printToolResult } from './output.js';

interface CommonOptions extends WorkspaceOptions {
  readonly json?: boolean;
}

function common(command: Command): Command {
  return command
    .option(
      '-w, --workspace <dir>',
      'repository root (default: $MOOR_WORKSPACE, else the enclosing git root)',
    )
    .option('-d, --decisions <dir>', 'decisions folder (default: .adr-dir, docs/adr, docs/decisions, …)')
    .option('--json', 'print the structured answer as JSON');
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

async function run(options: CommonOptions, tool: string, args: Record<string, unknown>): Promise<void> {
  try {
    printToolResult(await callToolLocally(resolveWorkspace(options), tool, args), options.json === true);
  } catch (error) {
    fail(error);
  }
}

export function registerDecisions(program: Command): void {
  const decisions = program.command('decisions').description("query this repository's decision records");

  common(decisions.command('search').argument('<query...>', 'words to search for'))
    .description('ranked full-text search')
    .option('-s, --status <status>', 'only this status (accepted, proposed, superseded, …)')
    .option('-n, --limit <n>', 'hits to show (1-50)', positiveInt)
    .action((words: string[], options: CommonOptions & { status?: string; limit?: number }) =>
      run(options, 'search_decisions', {
        query: words.join(' '),
        ...(options.status ? { status: options.status } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
      }),
    );

  common(decisions.command('show').argument('<ref>', 'number, id, slug or path'))
    .description('one decision in full')
    .action((ref: string, options: CommonOptions) => run(options, 'get_decision', { ref }));

  common(decisions.command('context').argument('<files...>', 'file paths in the repository'))
    .description('the decisions that govern these files')
    .action((files: string[], options: CommonOptions) => run(options, 'get_decision_context', { files }));

  common(decisions.command('superseded'))
    .description('every supersession relation and its state')
    .action((options: CommonOptions) => run(options, 'list_superseded', {}));

  common(decisions.command('check'))
    .description(
      'list problems (unparseable files, dangling/ambiguous/cyclic supersession, globs matching no file); exit 1 if any',
    )
    .action(async (options: CommonOptions) => {
      try {
        const result = await callToolLocally(resolveWorkspace(options), 'check_decisions', {});
        printToolResult(result, options.json === true);
        const findings = (result.structuredContent as { findings?: unknown[] } | undefined)?.findings ?? [];
        if (findings.length > 0) process.exitCode = 1;
      } catch (error) {
        fail(error);
      }
    });
}
