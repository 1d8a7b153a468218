/**
 * list_superseded: every supersession edge and whether it holds together.
 */
import { z } from 'zod';
import { defineTool, lazily } from '../../../host/pack.js';
import { supersededWithoutSuccessor } from '../corpus/resolve/relation-view.js';
import { corpusOf, type DecisionsState } from '../state.js';
import { describe, READ_ONLY, sharedSchemas, summarize } from './shared.js';

// Built on first use (lazily): a one-shot command calls one tool of the pack.
const schemas = lazily(() => {
  const { decisionSummarySchema } = sharedSchemas();
  const input = z.strictObject({});

  const edgeSchema = z.object({
    from: z.string(),
    to: z.string(),
    fromPath: z.string().nullable(),
    toPath: z.string().nullable(),
    state: z.enum(['resolved', 'dangling', 'ambiguous', 'cycle']),
    declaredBy: z.array(z.string()),
    candidates: z.array(z.string()),
  });

  const output = z.object({
    edges: z.array(edgeSchema),
    withoutSuccessor: z
      .array(decisionSummarySchema)
      .describe('Records whose status is superseded but that no supersession relation names as replaced.'),
    counts: z.object({
      resolved: z.number().int(),
      dangling: z.number().int(),
      ambiguous: z.number().int(),
      cycle: z.number().int(),
      withoutSuccessor: z.number().int(),
    }),
  });
  return { input, edgeSchema, output };
});
type Schemas = ReturnType<typeof schemas>;

export const listSuperseded = defineTool<DecisionsState, Schemas['input'], Schemas['output']>({
  name: 'list_superseded',
  title: 'List supersessions',
  description:
    'Every "A supersedes B" relation in the decision records, declared on either side, with its state: resolved, dangling (target missing), ambiguous (several targets) or cycle; plus records marked superseded that name no successor.',
  get input() {
    return schemas().input;
  },
  accept: (args) => (Object.keys(args).length === 0 ? {} : undefined),
  get output() {
    return schemas().output;
  },
  annotations: { title: 'List supersessions', ...READ_ONLY },
  // Its answer follows from the arguments and the corpus alone.
  pure: true,
  handler(_args, ctx) {
    const corpus = corpusOf(ctx.state);
    const withoutSuccessor = supersededWithoutSuccessor(corpus).map(summarize);
    const counts = {
      resolved: 0,
      dangling: 0,
      ambiguous: 0,
      cycle: 0,
      withoutSuccessor: withoutSuccessor.length,
    };
    const edges = corpus.edges.map((edge) => {
      counts[edge.state] += 1;
      return {
        from: edge.from,
        to: edge.to,
        fromPath: edge.fromPath,
        toPath: edge.toPath,
        state: edge.state,
        declaredBy: [...edge.declaredBy],
        candidates: [...(edge.candidates ?? [])],
      };
    });
    const structured = { edges, withoutSuccessor, counts };
    return { structured, text: render(structured) };
  },
});

function render(result: z.infer<Schemas['output']>): string {
  const { counts } = result;
  const head = `${result.edges.length} supersession relations: ${counts.resolved} resolved, ${counts.dangling} dangling, ${counts.ambiguous} ambiguous, ${counts.cycle} in cycles.`;
  const lines = result.edges.map((e) => {
    const note =
      e.state === 'resolved'
        ? ''
        : ` [${e.state}${e.candidates.length > 0 ? `: ${e.candidates.join(', ')}` : ''}]`;
    return `- ${e.from} supersedes ${e.to}${note}`;
  });
  const orphans = result.withoutSuccessor.map((d) => `- ${describe(d)}: superseded, but no successor named`);
  const tail =
    orphans.length === 0 ? [] : [`${orphans.length} superseded records name no successor:`, ...orphans];
  return [head, ...lines, ...tail].join('\n');
}
