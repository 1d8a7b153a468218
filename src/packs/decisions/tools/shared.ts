/**
 * Schemas and renderings shared by the decisions tools.
 */
import { z } from 'zod';
import type { Decision } from '../corpus/model.js';

export const STATUSES = [
  'proposed',
  'accepted',
  'rejected',
  'deprecated',
  'superseded',
  'amended',
  'unknown',
] as const;
export const statusSchema = z.enum(STATUSES);

/** Every decisions tool only reads the corpus and never reaches outside it. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export const decisionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: statusSchema,
  date: z.string().nullable(),
  path: z.string(),
});
export type DecisionSummary = z.infer<typeof decisionSummarySchema>;

export function summarize(decision: Decision): DecisionSummary {
  return {
    id: decision.id,
    title: decision.title,
    status: decision.status,
    date: decision.date,
    path: decision.path,
  };
}

/** One line naming a decision the same way in every tool's text. */
export function describe(decision: DecisionSummary): string {
  const date = decision.date ? `, ${decision.date}` : '';
  return `${decision.id} ${decision.title} [${decision.status}${date}] ${decision.path}`;
}

/** UTF-8 size guard: limits are stated in bytes, not UTF-16 code units. */
export function maxBytes(limit: number) {
  return (value: string) => Buffer.byteLength(value, 'utf8') <= limit;
}
