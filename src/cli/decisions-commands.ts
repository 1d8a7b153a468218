/**
 * `moor decisions …`: the tools' answers for people. The subcommands are a
 * table (command-table.ts): commander registers it for help and errors
 * (decisions.ts), and main.ts runs it through the fast parser first, so a git
 * hook's `moor decisions check` loads neither commander nor the MCP SDK.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import { type CommandSpec, defineCommand, parseCommandLine } from './command-table.js';
import { indexCommand, newCommand } from './decisions-authoring.js';
import {
  app,
  type CheckFinding,
  COMMON,
  type CommonOptions,
  daemonAnswer,
  days,
  isoDate,
  positiveInt,
  run,
} from './decisions-shared.js';
import { fail, printToolResult } from './output.js';
import { writeOut } from './stdout.js';
import { visibleText } from './visible-text.js';

const search = defineCommand<
  CommonOptions & {
    status?: string;
    limit?: number;
    since?: string;
    until?: string;
    tag?: string;
    log?: string;
  }
>({
  name: 'search',
  description: 'ranked full-text search',
  argument: { name: '<query...>', description: 'words to search for' },
  options: [
    ...COMMON,
    { flags: '-s, --status <status>', description: 'only this status (accepted, proposed, superseded, …)' },
    { flags: '-n, --limit <n>', description: 'hits to show (1-50)', parse: positiveInt },
    { flags: '--since <date>', description: 'only decisions dated on or after YYYY-MM-DD', parse: isoDate },
    { flags: '--until <date>', description: 'only decisions dated on or before YYYY-MM-DD', parse: isoDate },
    { flags: '--tag <tag>', description: 'only decisions with this tag' },
    { flags: '--log <name>', description: 'only this decision log (a monorepo with one per package)' },
  ],
  run: (words, options) =>
    run(options, 'search_decisions', {
      query: (words as string[]).join(' '),
      ...(options.status ? { status: options.status } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
      ...(options.since ? { since: options.since } : {}),
      ...(options.until ? { until: options.until } : {}),
      ...(options.tag ? { tag: options.tag } : {}),
      ...(options.log ? { log: options.log } : {}),
    }),
});

const show = defineCommand<CommonOptions>({
  name: 'show',
  description: 'one decision in full',
  argument: { name: '<ref>', description: 'number, id, slug or path' },
  options: COMMON,
  run: (ref, options) => run(options, 'get_decision', { ref }),
});

const context = defineCommand<
  CommonOptions & { staged?: boolean; since?: string; format: 'text' | 'markdown'; linkBase?: string }
>({
  name: 'context',
  description: 'the decisions that govern these files (or the files git reports changed)',
  argument: { name: '[files...]', description: 'file paths in the repository' },
  options: [
    ...COMMON,
    { flags: '--staged', description: 'the files staged for the next commit (for a pre-commit hook)' },
    {
      flags: '--since <ref>',
      description: 'the files changed since REF: commits since the merge base, edits and untracked files',
    },
    {
      flags: '--format <format>',
      description: 'output: text, or markdown (a pull-request comment; with --since or --staged)',
      choices: ['text', 'markdown'],
      defaultValue: 'text',
    },
    {
      flags: '--link-base <url>',
      description: 'markdown: prefix for record links, e.g. a blob URL of the commit',
    },
  ],
  run: async (argument, options) => {
    const files = argument as string[];
    const sources = [files.length > 0, options.staged === true, options.since !== undefined].filter(Boolean);
    if (sources.length !== 1)
      fail(new MoorError('USAGE', 'context needs file paths, --staged or --since REF (exactly one of them)'));
    if (options.format === 'markdown' && files.length > 0)
      fail(
        new MoorError('USAGE', '--format markdown summarises a change: use it with --since REF or --staged'),
      );
    if (files.length > 0) return run(options, 'get_decision_context', { files });
    try {
      const { changeSummary, decisionContextForChanges, resolveWorkspace } = await app();
      const change =
        options.since !== undefined
          ? { kind: 'since' as const, ref: options.since }
          : { kind: 'staged' as const };
      if (options.format === 'markdown') {
        writeOut(await changeSummary(resolveWorkspace(options), change, { linkBase: options.linkBase }));
        return;
      }
      printToolResult(
        await decisionContextForChanges(resolveWorkspace(options), change),
        options.json === true,
      );
    } catch (error) {
      fail(error);
    }
  },
});

const superseded = defineCommand<CommonOptions>({
  name: 'superseded',
  description: 'every supersession relation and its state',
  options: COMMON,
  run: (_, options) => run(options, 'list_superseded', {}),
});

const check = defineCommand<
  CommonOptions & { format: 'text' | 'json' | 'github' | 'sarif'; against?: string; maxProposedAge?: number }
>({
  name: 'check',
  description:
    'list problems (unparseable files, dangling/ambiguous/cyclic supersession, globs matching no file, broken links, overdue reviews); exit 1 if any',
  options: [
    ...COMMON,
    {
      flags: '--format <format>',
      description: 'output: text, json, github (workflow annotations) or sarif (SARIF 2.1.0)',
      choices: ['text', 'json', 'github', 'sarif'],
      defaultValue: 'text',
    },
    {
      flags: '--against <ref>',
      description: 'also report records this branch adds under a number REF (e.g. origin/main) already uses',
    },
    {
      flags: '--max-proposed-age <days>',
      description: 'also report proposals dated more than DAYS days ago',
      parse: days,
    },
  ],
  run: async (_, options) => {
    try {
      // Only the command line's own extras need this process: the plain check is the daemon's to answer.
      const plain = options.against === undefined && options.maxProposedAge === undefined;
      const answered = plain ? await daemonAnswer(options, 'check_decisions', {}) : undefined;
      const textual = options.format === 'text' || options.format === 'json';
      const findingsOf = (result: CallToolResult) =>
        (result.structuredContent as { findings?: CheckFinding[] } | undefined)?.findings ?? [];
      if (answered !== undefined && (answered.isError || textual)) {
        printToolResult(answered, options.json === true || options.format === 'json');
        if (findingsOf(answered).length > 0) process.exitCode = 1;
        return;
      }
      const { checkLocally, githubAnnotations, IDENTITY, resolveWorkspace, sarifLog } = await app();
      const resolved = resolveWorkspace(options);
      const result =
        answered ??
        (await checkLocally(resolved, { against: options.against, maxProposedAge: options.maxProposedAge }));
      const findings = findingsOf(result);
      if (result.isError || textual)
        printToolResult(result, options.json === true || options.format === 'json');
      else if (options.format === 'github') writeOut(githubAnnotations(findings));
      else
        writeOut(
          `${JSON.stringify(sarifLog(findings, { toolVersion: IDENTITY.version, root: resolved.root }), null, 2)}\n`,
        );
      if (findings.length > 0) process.exitCode = 1;
    } catch (error) {
      fail(error);
    }
  },
});

const graph = defineCommand<CommonOptions & { format: 'svg' | 'dot' | 'mermaid' }>({
  name: 'graph',
  description: 'the supersession and amendment graph: SVG (as the status page draws it), DOT or Mermaid',
  options: [
    ...COMMON,
    {
      flags: '--format <format>',
      description: 'output: svg, dot (Graphviz) or mermaid',
      choices: ['svg', 'dot', 'mermaid'],
      defaultValue: 'svg',
    },
  ],
  run: async (_, options) => {
    try {
      // The layout library loads only for this command, never for the hook-speed ones.
      const [{ resolveWorkspace }, { repositoryGraph }] = await Promise.all([
        app(),
        import('../app/status/decision-graph.js'),
      ]);
      // DOT and Mermaid quote titles for their own syntax, not for a terminal.
      writeOut(visibleText(repositoryGraph(resolveWorkspace(options), options.format)));
    } catch (error) {
      fail(error);
    }
  },
});

/** In the order `moor decisions --help` lists them. */
export const DECISIONS_COMMANDS: readonly CommandSpec[] = [
  search,
  show,
  context,
  superseded,
  check,
  newCommand,
  indexCommand,
  graph,
];

/**
 * `moor decisions SUBCOMMAND …` (argv after `decisions`) as a ready-to-run
 * command, or undefined when commander should handle it (help, unknown
 * subcommands, anything malformed).
 */
export function decisionsFastPath(argv: readonly string[]): (() => Promise<void>) | undefined {
  const spec = DECISIONS_COMMANDS.find((command) => command.name === argv[0]);
  const parsed = spec && parseCommandLine(spec, argv.slice(1));
  return parsed && (() => spec.run(parsed.argument, parsed.options));
}
