/**
 * `moor decisions …`: the tools' answers for people.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ResolvedWorkspace, WorkspaceOptions } from '../app/options.js';
import { MoorError } from '../errors.js';
import { fail, printToolResult } from './output.js';

interface CheckFinding {
  readonly path: string;
  readonly line: number | null;
  readonly kind: string;
  readonly message: string;
}

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

/**
 * The app (host, SDK, packs) loads only when a decisions command runs, so
 * registering these commands costs the other commands nothing.
 */
async function app() {
  const [local, options, formats, identity, graph] = await Promise.all([
    import('../app/local.js'),
    import('../app/options.js'),
    import('../app/check-formats.js'),
    import('../app/identity.js'),
    import('../app/decision-graph.js'),
  ]);
  return {
    ...local,
    ...formats,
    repositoryGraph: graph.repositoryGraph,
    IDENTITY: identity.IDENTITY,
    resolveWorkspace: (o: WorkspaceOptions): ResolvedWorkspace => options.resolveWorkspace(o),
  };
}

async function run(options: CommonOptions, tool: string, args: Record<string, unknown>): Promise<void> {
  try {
    const { callToolLocally, resolveWorkspace } = await app();
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

  common(decisions.command('context').argument('[files...]', 'file paths in the repository'))
    .description('the decisions that govern these files (or the files git reports changed)')
    .option('--staged', 'the files staged for the next commit (for a pre-commit hook)')
    .option(
      '--since <ref>',
      'the files changed since REF: commits since the merge base, edits and untracked files',
    )
    .action(async (files: string[], options: CommonOptions & { staged?: boolean; since?: string }) => {
      const sources = [files.length > 0, options.staged === true, options.since !== undefined].filter(
        Boolean,
      );
      if (sources.length !== 1)
        fail(
          new MoorError('USAGE', 'context needs file paths, --staged or --since REF (exactly one of them)'),
        );
      if (files.length > 0) return run(options, 'get_decision_context', { files });
      try {
        const { decisionContextForChanges, resolveWorkspace } = await app();
        const change =
          options.since !== undefined
            ? { kind: 'since' as const, ref: options.since }
            : { kind: 'staged' as const };
        printToolResult(
          await decisionContextForChanges(resolveWorkspace(options), change),
          options.json === true,
        );
      } catch (error) {
        fail(error);
      }
    });

  common(decisions.command('superseded'))
    .description('every supersession relation and its state')
    .action((options: CommonOptions) => run(options, 'list_superseded', {}));

  common(decisions.command('graph'))
    .description('the supersession and amendment graph: SVG (as the status page draws it), DOT or Mermaid')
    .addOption(
      new Option('--format <format>', 'output: svg, dot (Graphviz) or mermaid')
        .choices(['svg', 'dot', 'mermaid'])
        .default('svg'),
    )
    .action(async (options: CommonOptions & { format: 'svg' | 'dot' | 'mermaid' }) => {
      try {
        const { repositoryGraph, resolveWorkspace } = await app();
        process.stdout.write(repositoryGraph(resolveWorkspace(options), options.format));
      } catch (error) {
        fail(error);
      }
    });

  common(decisions.command('check'))
    .description(
      'list problems (unparseable files, dangling/ambiguous/cyclic supersession, globs matching no file); exit 1 if any',
    )
    .addOption(
      new Option(
        '--format <format>',
        'output: text, json, github (workflow annotations) or sarif (SARIF 2.1.0)',
      )
        .choices(['text', 'json', 'github', 'sarif'])
        .default('text'),
    )
    .action(async (options: CommonOptions & { format: 'text' | 'json' | 'github' | 'sarif' }) => {
      try {
        const { callToolLocally, githubAnnotations, IDENTITY, resolveWorkspace, sarifLog } = await app();
        const resolved = resolveWorkspace(options);
        const result = await callToolLocally(resolved, 'check_decisions', {});
        const findings =
          (result.structuredContent as { findings?: CheckFinding[] } | undefined)?.findings ?? [];
        if (result.isError || options.format === 'text' || options.format === 'json')
          printToolResult(result, options.json === true || options.format === 'json');
        else if (options.format === 'github') process.stdout.write(githubAnnotations(findings));
        else
          process.stdout.write(
            `${JSON.stringify(sarifLog(findings, { toolVersion: IDENTITY.version, root: resolved.root }), null, 2)}\n`,
          );
        if (findings.length > 0) process.exitCode = 1;
      } catch (error) {
        fail(error);
      }
    });
}
