/**
 * get_decision: one decision's metadata and body, by any reference form.
 */
import { z } from 'zod';
import { ToolError } from '../../../errors.js';
import { defineTool, lazily } from '../../../host/pack.js';
import type { DecisionCorpus as Corpus } from '../corpus/corpus-view.js';
import type { Decision } from '../corpus/model.js';
import { unreadFilesFor } from '../corpus/read/unread.js';
import { type RelationView, relationsOf } from '../corpus/resolve/relation-view.js';
import { corpusOf, type DecisionsState } from '../state.js';
import { isText, onlyKeys } from './quick-accept.js';
import { describe, maxBytes, READ_ONLY, sharedSchemas, summarize } from './shared.js';

// Built on first use (lazily): a one-shot command calls one tool of the pack.
const schemas = lazily(() => {
  const { statusSchema } = sharedSchemas();
  const input = z.strictObject({
    ref: z
      .string()
      .min(1, 'must not be empty')
      .refine(maxBytes(1024), 'must be at most 1024 bytes')
      .describe(
        'A number (18, 0018, ADR-0018), an id, a slug, or a path relative to the repository or corpus.',
      ),
  });

  const relationSchema = z.object({
    ref: z.string().describe("The other decision's id when resolved, else the reference as written."),
    state: z
      .enum(['resolved', 'dangling', 'ambiguous', 'cycle'])
      .describe(
        'resolved: the other decision exists; dangling: nothing matches ref; ambiguous: several decisions match (see candidates); cycle: part of a supersession cycle, so neither side governs.',
      ),
    path: z.string().nullable(),
    candidates: z.array(z.string()),
    declaredBy: z.array(z.string()),
    partial: z
      .boolean()
      .describe('The record says the replacement or amendment covers only part of the other.'),
  });

  const relationsSchema = z.object({
    supersedes: z.array(relationSchema),
    supersededBy: z.array(relationSchema),
    amends: z.array(relationSchema),
    amendedBy: z.array(relationSchema),
  });

  const output = z.object({
    id: z.string(),
    number: z.number().int().nullable(),
    title: z.string(),
    status: statusSchema,
    statusRaw: z.string(),
    date: z.string().nullable(),
    /** Only when the record gives a last-updated date apart from its date. */
    updated: z.string().optional(),
    format: z.enum(['madr', 'nygard', 'log4brains']),
    path: z.string(),
    deciders: z.array(z.string()),
    consulted: z.array(z.string()),
    informed: z.array(z.string()),
    tags: z.array(z.string()),
    supersedes: z.array(z.string()),
    supersededBy: z.array(z.string()),
    amends: z.array(z.string()),
    amendedBy: z.array(z.string()),
    governs: z.array(z.string()),
    relations: relationsSchema,
    body: z.string(),
  });
  return { input, relationSchema, relationsSchema, output };
});
type Schemas = ReturnType<typeof schemas>;

export const getDecision = defineTool<DecisionsState, Schemas['input'], Schemas['output']>({
  name: 'get_decision',
  title: 'Get a decision',
  description:
    'Fetch one architecture decision record: status, date, deciders, tags, what it supersedes and what superseded it, the paths it governs, and the full markdown body.',
  get input() {
    return schemas().input;
  },
  accept: (args) =>
    onlyKeys(args, ['ref']) && isText(args.ref, 1, Number.POSITIVE_INFINITY, 1024)
      ? { ref: args.ref }
      : undefined,
  get output() {
    return schemas().output;
  },
  annotations: { title: 'Get a decision', ...READ_ONLY },
  // Its answer follows from the arguments and the corpus alone.
  pure: true,
  handler(args, ctx) {
    const corpus = corpusOf(ctx.state);
    const found = corpus.resolve(args.ref);
    if (found.kind === 'ambiguous') {
      const lines = found.candidates.map((d) => `- ${describe(summarize(d))}`);
      throw new ToolError(
        'DECISION_AMBIGUOUS',
        `"${args.ref}" is ambiguous: ${found.candidates.length} decisions match.\n${lines.join('\n')}\nCall again with one of these paths as ref.`,
      );
    }
    if (found.kind === 'not-found') {
      const unread = unreadFilesFor(corpus, args.ref);
      if (unread.length > 0) {
        const lines = unread.map((f) => `- ${f.path}: ${f.reasons.join('; ')}`);
        throw new ToolError(
          'DECISION_UNREADABLE',
          `"${args.ref}" names ${unread.length === 1 ? 'a file' : `${unread.length} files`} in the decision folder that could not be read as a decision:\n${lines.join('\n')}\nFix the file (check_decisions lists every such problem).`,
        );
      }
      const hint =
        found.suggestions.length > 0
          ? `Closest: ${found.suggestions.map((d) => `${d.id} (${d.title})`).join(', ')}.`
          : 'Use search_decisions to find it.';
      throw new ToolError('DECISION_NOT_FOUND', `No decision matches "${args.ref}". ${hint}`);
    }
    const structured = detail(corpus, found.decision);
    return { structured, text: render(structured) };
  },
});

function detail(corpus: Corpus, decision: Decision): z.infer<Schemas['output']> {
  const relations = relationsOf(corpus, decision);
  const copy = (views: readonly RelationView[]) =>
    views.map((v) => ({ ...v, candidates: [...v.candidates], declaredBy: [...v.declaredBy] }));
  return {
    id: decision.id,
    number: decision.number,
    title: decision.title,
    status: decision.status,
    statusRaw: decision.statusRaw,
    date: decision.date,
    ...(decision.updated === undefined ? {} : { updated: decision.updated }),
    format: decision.format,
    path: decision.path,
    deciders: [...decision.deciders],
    consulted: [...decision.consulted],
    informed: [...decision.informed],
    tags: [...decision.tags],
    supersedes: relations.supersedes.map((v) => v.ref),
    supersededBy: relations.supersededBy.map((v) => v.ref),
    amends: relations.amends.map((v) => v.ref),
    amendedBy: relations.amendedBy.map((v) => v.ref),
    governs: [...decision.governs],
    relations: {
      supersedes: copy(relations.supersedes),
      supersededBy: copy(relations.supersededBy),
      amends: copy(relations.amends),
      amendedBy: copy(relations.amendedBy),
    },
    body: decision.body,
  };
}

function render(d: z.infer<Schemas['output']>): string {
  const meta: string[] = [
    `# ${d.id} ${d.title}`,
    '',
    `Status: ${d.status}${d.statusRaw && d.statusRaw.toLowerCase() !== d.status ? ` (${d.statusRaw})` : ''}`,
  ];
  if (d.date) meta.push(`Date: ${d.date}`);
  if (d.updated) meta.push(`Updated: ${d.updated}`);
  meta.push(`Path: ${d.path}`);
  const lists: Array<[string, string[]]> = [
    ['Deciders', d.deciders],
    ['Consulted', d.consulted],
    ['Informed', d.informed],
    ['Tags', d.tags],
    ['Supersedes', d.relations.supersedes.map(relationText)],
    ['Superseded by', d.relations.supersededBy.map(relationText)],
    ['Amends', d.relations.amends.map(relationText)],
    ['Amended by', d.relations.amendedBy.map(relationText)],
    ['Governs', d.governs],
  ];
  for (const [label, values] of lists) if (values.length > 0) meta.push(`${label}: ${values.join(', ')}`);
  return `${meta.join('\n')}\n\n${d.body.trim()}\n`;
}

/** A relation as one list item: the id alone when it holds, else what is wrong with it. */
function relationText(v: z.infer<Schemas['relationSchema']>): string {
  switch (v.state) {
    case 'resolved':
      return v.partial ? `${v.ref} (partly)` : v.ref;
    case 'dangling':
      return `${v.ref} (dangling: no decision matches "${v.ref}")`;
    case 'ambiguous':
      return `${v.ref} (ambiguous: ${v.candidates.join(', ')})`;
    case 'cycle':
      return `${v.ref} (in a supersession cycle: neither side governs)`;
  }
}
