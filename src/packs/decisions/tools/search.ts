/**
 * search_decisions: ranked full-text search over titles and bodies.
 */
import { z } from 'zod';
import { defineTool, lazily } from '../../../host/pack.js';
import type { Decision } from '../corpus/model.js';
import { decodeSearchCursor, encodeSearchCursor } from '../cursor.js';
import { corpusOf, type DecisionsState } from '../state.js';
import { checkLog, logNameSchema } from './log-choice.js';
import { isText, isWhole, onlyKeys } from './quick-accept.js';
import { describe, maxBytes, READ_ONLY, STATUSES, sharedSchemas, summarize } from './shared.js';

export const MAX_QUERY_BYTES = 1024;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

const SEARCH_KEYS = ['query', 'status', 'since', 'until', 'tag', 'log', 'limit', 'cursor'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isIsoDate(value: unknown): boolean {
  return typeof value === 'string' && ISO_DATE.test(value);
}

/** Absent, or present and passing `check`. */
function optional(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

// Built on first use (lazily): a one-shot command calls one tool of the pack.
const schemas = lazily(() => {
  const { statusSchema, decisionSummarySchema } = sharedSchemas();
  const isoDateSchema = z.string().regex(ISO_DATE, 'must be a date as YYYY-MM-DD');

  const input = z.strictObject({
    query: z
      .string()
      .min(1, 'must not be empty')
      .refine(maxBytes(MAX_QUERY_BYTES), `must be at most ${MAX_QUERY_BYTES} bytes`)
      .describe('Words to look for in titles and bodies; prefixes and small typos still match.'),
    status: statusSchema.optional().describe('Only decisions with this normalized status.'),
    since: isoDateSchema.optional().describe('Only decisions dated on or after this day (YYYY-MM-DD).'),
    until: isoDateSchema.optional().describe('Only decisions dated on or before this day (YYYY-MM-DD).'),
    tag: z.string().min(1).max(200).optional().describe('Only decisions with this tag (case-insensitive).'),
    log: logNameSchema()
      .optional()
      .describe(
        'In a repository with several decision logs (a monorepo), search only this one (its name, as in billing:0003).',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIMIT)
      .default(DEFAULT_LIMIT)
      .describe(`Hits per page (1-${MAX_LIMIT}).`),
    cursor: z
      .string()
      .max(512)
      .optional()
      .describe('nextCursor from a previous answer, to get the next page.'),
  });

  const hitSchema = decisionSummarySchema.extend({
    score: z.number(),
    snippet: z.string(),
  });

  const output = z.object({
    query: z.string(),
    status: statusSchema.nullable(),
    total: z.number().int(),
    /** False when no decision has every word, so the hits match any of them. */
    matchedAllWords: z.boolean(),
    hits: z.array(hitSchema),
    nextCursor: z.string().nullable(),
  });
  return { isoDateSchema, input, hitSchema, output };
});
type Schemas = ReturnType<typeof schemas>;

export const searchDecisions = defineTool<DecisionsState, Schemas['input'], Schemas['output']>({
  name: 'search_decisions',
  title: 'Search decisions',
  description:
    'Full-text search of the architecture decision records, ranked (title matches first). Returns id, title, status, date, path and a snippet showing the match. Page with nextCursor.',
  get input() {
    return schemas().input;
  },
  accept: (args) => {
    const { query, status, since, until, tag, log, limit, cursor } = args;
    if (!onlyKeys(args, SEARCH_KEYS) || !isText(query, 1, Number.POSITIVE_INFINITY, MAX_QUERY_BYTES))
      return undefined;
    if (status !== undefined && !(STATUSES as readonly unknown[]).includes(status)) return undefined;
    if (!optional(since, isIsoDate) || !optional(until, isIsoDate)) return undefined;
    if (!optional(tag, (v) => isText(v, 1, 200)) || !optional(log, (v) => isText(v, 1, 200)))
      return undefined;
    if (!optional(limit, (v) => isWhole(v, 1, MAX_LIMIT)) || !optional(cursor, (v) => isText(v, 0, 512)))
      return undefined;
    // The schema's own key order, the default in its place.
    return {
      query,
      ...(status === undefined ? {} : { status: status as (typeof STATUSES)[number] }),
      ...(since === undefined ? {} : { since: since as string }),
      ...(until === undefined ? {} : { until: until as string }),
      ...(tag === undefined ? {} : { tag: tag as string }),
      ...(log === undefined ? {} : { log: log as string }),
      limit: (limit as number | undefined) ?? DEFAULT_LIMIT,
      ...(cursor === undefined ? {} : { cursor: cursor as string }),
    };
  },
  get output() {
    return schemas().output;
  },
  annotations: { title: 'Search decisions', ...READ_ONLY },
  // Its answer follows from the arguments and the corpus alone.
  pure: true,
  handler(args, ctx) {
    const corpus = corpusOf(ctx.state);
    const status = args.status ?? null;
    const { since, until, tag, log } = args;
    if (log !== undefined) checkLog(ctx.state, log);
    // Without the new filters the key is as before, so cursors handed out earlier stay valid.
    const filterKey =
      since || until || tag ? `\u0000${since ?? ''}\u0000${until ?? ''}\u0000${tag ?? ''}` : '';
    const logKey = log === undefined ? '' : `\u0000log\u0000${log}`;
    const queryKey = `${args.query}\u0000${status ?? ''}\u0000${args.limit}${filterKey}${logKey}`;
    const offset = args.cursor ? decodeSearchCursor(args.cursor, queryKey, corpus.fingerprint) : 0;
    const wantedTag = tag?.toLowerCase();
    const filter =
      filterKey === ''
        ? undefined
        : (d: Decision) =>
            (since === undefined || (d.date !== null && d.date >= since)) &&
            (until === undefined || (d.date !== null && d.date <= until)) &&
            (wantedTag === undefined || d.tags.some((t) => t.toLowerCase() === wantedTag));
    const found = corpus.search(args.query, { status: args.status, filter, offset, limit: args.limit, log });
    const next = offset + found.hits.length;
    const structured = {
      query: args.query,
      status,
      total: found.total,
      matchedAllWords: found.matchedAll,
      hits: found.hits.map((hit) => ({
        ...summarize(hit.decision),
        score: Math.round(hit.score * 1000) / 1000,
        snippet: hit.snippet,
      })),
      nextCursor: next < found.total ? encodeSearchCursor(queryKey, corpus.fingerprint, next) : null,
    };
    return { structured, text: render(structured, offset) };
  },
});

function render(result: z.infer<Schemas['output']>, offset: number): string {
  const filter = result.status ? ` with status ${result.status}` : '';
  if (result.total === 0) return `No decision matches "${result.query}"${filter}.`;
  const first = offset + 1;
  const last = offset + result.hits.length;
  const any = result.matchedAllWords ? '' : ' (no decision has every word; these have some)';
  const lines = [`Decisions ${first}-${last} of ${result.total} matching "${result.query}"${filter}${any}:`];
  for (const hit of result.hits) lines.push(`- ${describe(hit)}`, `  ${hit.snippet}`);
  if (result.nextCursor) lines.push(`More: call again with cursor "${result.nextCursor}".`);
  return lines.join('\n');
}
