/**
 * get_decision_context: which decisions govern these files. Governance follows
 * supersession: a superseded decision's paths are governed by its successor,
 * and the answer says which decision the successor replaced.
 */
import { z } from 'zod';
import { defineTool, lazily } from '../../../host/pack.js';
import { toWorkspaceRelative } from '../corpus/find/paths.js';
import type { GoverningEntry } from '../corpus/resolve/governs.js';
import { cyclesByPath } from '../corpus/resolve/relation-view.js';
import { corpusOf, type DecisionsState } from '../state.js';
import { isText, onlyKeys } from './quick-accept.js';
import { describe, maxBytes, READ_ONLY, sharedSchemas, summarize } from './shared.js';

export const MAX_FILES = 200;

// Built on first use (lazily): a one-shot command calls one tool of the pack.
const schemas = lazily(() => {
  const { decisionSummarySchema } = sharedSchemas();
  const input = z.strictObject({
    files: z
      .array(z.string().min(1, 'must not be empty').refine(maxBytes(4096), 'must be at most 4096 bytes'))
      .min(1, 'needs at least one file')
      .max(MAX_FILES, `at most ${MAX_FILES} files per call`)
      .describe('File paths, relative to the repository root (or absolute inside it).'),
  });

  const governingSchema = decisionSummarySchema.extend({
    globs: z.array(z.string()),
    replaces: z.array(z.string()),
  });

  const cycleSchema = governingSchema.extend({
    cycle: z
      .array(z.string())
      .describe('Ids of every decision in the supersession cycle, this one included.'),
  });

  const fileSchema = z.object({
    file: z.string(),
    refused: z.string().nullable(),
    governing: z.array(governingSchema),
    proposed: z.array(decisionSummarySchema.extend({ globs: z.array(z.string()) })),
    inCycle: z
      .array(cycleSchema)
      .describe(
        'Matching decisions caught in a supersession cycle: none of them governs until the records are fixed.',
      ),
  });

  const output = z.object({ files: z.array(fileSchema) });
  return { input, governingSchema, cycleSchema, fileSchema, output };
});
type Schemas = ReturnType<typeof schemas>;

export const getDecisionContext = defineTool<DecisionsState, Schemas['input'], Schemas['output']>({
  name: 'get_decision_context',
  title: 'Decisions governing files',
  description:
    'For each file path, the decisions that govern it (through their affects/scope globs), following supersession to the current decision, plus proposals that would govern it. Call before changing files.',
  get input() {
    return schemas().input;
  },
  accept: (args) => {
    const { files } = args;
    if (!onlyKeys(args, ['files']) || !Array.isArray(files) || files.length < 1 || files.length > MAX_FILES)
      return undefined;
    return files.every((f) => isText(f, 1, Number.POSITIVE_INFINITY, 4096))
      ? { files: [...files] }
      : undefined;
  },
  get output() {
    return schemas().output;
  },
  annotations: { title: 'Decisions governing files', ...READ_ONLY },
  // Its answer follows from the arguments and the corpus alone.
  pure: true,
  handler(args, ctx) {
    const corpus = corpusOf(ctx.state);
    const checked = args.files.map((file) => ({
      file,
      relative: toWorkspaceRelative(ctx.workspaceRoot, file),
    }));
    const accepted = checked.flatMap((c) => (c.relative.ok ? [c.relative.path] : []));
    const answers = new Map(corpus.governing(accepted).map((answer) => [answer.file, answer]));
    const cycles = cyclesByPath(corpus);
    const outside = (e: GoverningEntry) => !cycles.has(e.decision.path);
    const files = checked.map(({ file, relative }) => {
      if (!relative.ok) return { file, refused: relative.reason, governing: [], proposed: [], inCycle: [] };
      const answer = answers.get(relative.path);
      const all = [...(answer?.governing ?? []), ...(answer?.proposed ?? []), ...(answer?.history ?? [])];
      return {
        file: relative.path,
        refused: null,
        governing: (answer?.governing ?? []).filter(outside).map(governingEntry),
        proposed: (answer?.proposed ?? [])
          .filter(outside)
          .map((p) => ({ ...summarize(p.decision), globs: [...p.globs] })),
        inCycle: all.flatMap((e) => {
          const cycle = cycles.get(e.decision.path);
          return cycle === undefined ? [] : [{ ...governingEntry(e), cycle: [...cycle.ids] }];
        }),
      };
    });
    const structured = { files };
    return { structured, text: render(structured) };
  },
});

function governingEntry(g: GoverningEntry): z.infer<Schemas['governingSchema']> {
  return { ...summarize(g.decision), globs: [...g.globs], replaces: [...g.replaced] };
}

function render(result: z.infer<Schemas['output']>): string {
  const lines: string[] = [];
  for (const entry of result.files) {
    if (entry.refused) {
      lines.push(`${entry.file}: refused (${entry.refused})`);
      continue;
    }
    if (entry.governing.length === 0 && entry.proposed.length === 0 && entry.inCycle.length === 0) {
      lines.push(`${entry.file}: no decision governs this file`);
      continue;
    }
    lines.push(`${entry.file}:`);
    for (const g of entry.governing) {
      const replaced = g.replaces.length > 0 ? ` (replaces ${g.replaces.join(', ')})` : '';
      lines.push(`- ${describe(g)}${replaced} via ${g.globs.join(', ')}`);
    }
    for (const p of entry.proposed) lines.push(`- proposed: ${describe(p)} via ${p.globs.join(', ')}`);
    for (const c of entry.inCycle)
      lines.push(
        `- in a supersession cycle (${c.cycle.join(' ↔ ')}), so it does not govern until the records are fixed: ${describe(c)} via ${c.globs.join(', ')}`,
      );
  }
  return lines.join('\n');
}
