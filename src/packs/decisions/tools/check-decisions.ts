/**
 * check_decisions: the full corpus check — unparseable files, dangling,
 * ambiguous and cyclic supersession, governed globs that match no file in
 * the workspace, links to missing files and passed review dates. The glob check walks the repository, so the tool may run
 * as a durable task (its progress becomes the task's status message) and
 * stops when cancelled.
 */
import { z } from 'zod';
import { defineTool, lazily } from '../../../host/pack.js';
import { checkWorkspace, type WorkspaceCheckReport } from '../check.js';
import { corpusOf, type DecisionsState } from '../state.js';
import { READ_ONLY } from './shared.js';

// Built on first use (lazily): a one-shot command calls one tool of the pack.
const schemas = lazily(() => {
  const input = z.strictObject({});

  const findingSchema = z.object({
    path: z.string(),
    line: z.number().int().nullable().describe('1-based line the problem is written on; null when unknown.'),
    kind: z.string(),
    message: z.string(),
  });

  const fateSchema = z.object({
    path: z.string(),
    fate: z.enum(['decision', 'unreadable', 'skipped']),
    reason: z
      .string()
      .nullable()
      .describe('Why a file is unreadable or skipped (template, table of contents, …).'),
  });

  const output = z.object({
    decisions: z.number().int(),
    files: z
      .array(fateSchema)
      .describe('Every Markdown file of the decision folder and what became of it, in path order.'),
    findings: z.array(findingSchema),
    counts: z.record(z.string(), z.number().int()),
    filesScanned: z.number().int(),
    foldersScanned: z.number().int(),
    globsChecked: z.number().int(),
  });
  return { input, findingSchema, fateSchema, output };
});
type Schemas = ReturnType<typeof schemas>;

export const checkDecisions = defineTool<DecisionsState, Schemas['input'], Schemas['output']>({
  name: 'check_decisions',
  title: 'Check decisions',
  description:
    'Checks the whole decision corpus: files that do not parse, supersession links that dangle, are ambiguous or form cycles, governed paths (globs) that match no file in the repository, relative links to files that are not there, and review dates that have passed. Walks the repository, so it can take a while on a big one; run it as a task where the client supports tasks.',
  get input() {
    return schemas().input;
  },
  accept: (args) => (Object.keys(args).length === 0 ? {} : undefined),
  get output() {
    return schemas().output;
  },
  annotations: { title: 'Check decisions', ...READ_ONLY },
  task: { eligibility: 'optional', cancellation: 'abort' },
  async handler(_args, ctx) {
    const corpus = corpusOf(ctx.state);
    await ctx.progress(0, undefined, 'checking the corpus');
    const report = await checkWorkspace(corpus, {
      signal: ctx.signal,
      onProgress: ({ files, folders }) =>
        ctx.progress(files, undefined, `walked ${files} files in ${folders} folders`),
    });
    const structured = shape(report, fates(corpus));
    return { structured, text: render(structured) };
  },
});

type Fate = z.infer<Schemas['fateSchema']>;

/** Nothing silent: each file is a decision, unreadable (with why) or skipped (with why). */
function fates(corpus: ReturnType<typeof corpusOf>): Fate[] {
  const byPath = new Map<string, Fate>();
  for (const d of corpus.decisions) byPath.set(d.path, { path: d.path, fate: 'decision', reason: null });
  for (const s of corpus.skipped) byPath.set(s.path, { path: s.path, fate: 'skipped', reason: s.reason });
  for (const p of corpus.problems) {
    if (byPath.has(p.path) || p.kind === 'no-decisions') continue;
    const fate = p.kind === 'skipped' ? 'skipped' : 'unreadable';
    byPath.set(p.path, { path: p.path, fate, reason: p.message });
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The tool's structured answer. */
export type CheckAnswer = z.infer<Schemas['output']>;

function shape(report: WorkspaceCheckReport, files: Fate[]): z.infer<Schemas['output']> {
  const counts: Record<string, number> = {};
  for (const f of report.findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return {
    decisions: report.decisions,
    files,
    findings: report.findings.map((f) => ({ path: f.path, line: f.line, kind: f.kind, message: f.message })),
    counts,
    filesScanned: report.filesScanned,
    foldersScanned: report.foldersScanned,
    globsChecked: report.globsChecked,
  };
}

/** The answer as text; exported so the CLI can say findings it adds (`--against`) the same way. */
export function render(result: CheckAnswer): string {
  // Paths without wildcards are checked by looking them up, so no walk happens when all are such.
  const walked =
    result.filesScanned === 0
      ? `${result.globsChecked} governed paths checked`
      : `${result.globsChecked} governed paths checked, ${result.filesScanned} files walked for their patterns`;
  // Skipped files are said too: a file moor does not serve is never silently absent.
  const skipped = result.files
    .filter((f) => f.fate === 'skipped')
    .map((f) => `- ${f.path}: skipped (${f.reason})`);
  const skippedNote = skipped.length === 0 ? [] : [`${skipped.length} skipped:`, ...skipped];
  if (result.findings.length === 0)
    return [`${result.decisions} decisions, no problems (${walked}).`, ...skippedNote].join('\n');
  const lines = result.findings.map(
    (f) => `- ${f.path}${f.line === null ? '' : `:${f.line}`}: ${f.kind}: ${f.message}`,
  );
  return [
    `${result.decisions} decisions, ${result.findings.length} problems (${walked}):`,
    ...lines,
    ...skippedNote,
  ].join('\n');
}
