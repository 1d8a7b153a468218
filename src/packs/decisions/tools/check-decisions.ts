/**
 * check_decisions: the full corpus check — unparseable files, dangling,
 * ambiguous and cyclic supersession, and governed globs that match no file
 * in the workspace. The glob check walks the repository, so the tool may run
 * as a durable task (its progress becomes the task's status message) and
 * stops when cancelled.
 */
import { z } from 'zod';
import { defineTool } from '../../../host/pack.js';
import { checkWorkspace, type WorkspaceCheckReport } from '../check.js';
import { corpusOf, type DecisionsState } from '../state.js';
import { READ_ONLY } from './shared.js';

const input = z.strictObject({});

const findingSchema = z.object({
  path: z.string(),
  line: z.number().int().nullable().describe('1-based line the problem is written on; null when unknown.'),
  kind: z.string(),
  message: z.string(),
});

const output = z.object({
  decisions: z.number().int(),
  findings: z.array(findingSchema),
  counts: z.record(z.string(), z.number().int()),
  filesScanned: z.number().int(),
  foldersScanned: z.number().int(),
  globsChecked: z.number().int(),
});

export const checkDecisions = defineTool<DecisionsState, typeof input, typeof output>({
  name: 'check_decisions',
  title: 'Check decisions',
  description:
    'Checks the whole decision corpus: files that do not parse, supersession links that dangle, are ambiguous or form cycles, and governed paths (globs) that match no file in the repository. Walks the repository, so it can take a while on a big one; run it as a task where the client supports tasks.',
  input,
  output,
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
    const structured = shape(report);
    return { structured, text: render(structured) };
  },
});

function shape(report: WorkspaceCheckReport): z.infer<typeof output> {
  const counts: Record<string, number> = {};
  for (const f of report.findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return {
    decisions: report.decisions,
    findings: report.findings.map((f) => ({ path: f.path, line: f.line, kind: f.kind, message: f.message })),
    counts,
    filesScanned: report.filesScanned,
    foldersScanned: report.foldersScanned,
    globsChecked: report.globsChecked,
  };
}

function render(result: z.infer<typeof output>): string {
  const walked = `${result.globsChecked} governed paths checked against ${result.filesScanned} files`;
  if (result.findings.length === 0) return `${result.decisions} decisions, no problems (${walked}).`;
  const lines = result.findings.map(
    (f) => `- ${f.path}${f.line === null ? '' : `:${f.line}`}: ${f.kind}: ${f.message}`,
  );
  return [`${result.decisions} decisions, ${result.findings.length} problems (${walked}):`, ...lines].join(
    '\n',
  );
}
