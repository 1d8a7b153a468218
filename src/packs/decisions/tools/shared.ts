/**
 * Schemas and renderings shared by the decisions tools.
 */
import { z } from 'zod';
import { lazily } from '../../../host/pack.js';
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

/** Every decisions tool only reads the corpus and never reaches outside it. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** The schemas several tools' schemas are made of, built when the first of those is (lazily). */
export const sharedSchemas = lazily(() => {
  const statusSchema = z.enum(STATUSES);
  const decisionSummarySchema = z.object({
    id: z.string(),
    title: z.string(),
    status: statusSchema,
    date: z.string().nullable(),
    path: z.string(),
  });
  return { statusSchema, decisionSummarySchema };
});
export type DecisionSummary = z.infer<ReturnType<typeof sharedSchemas>['decisionSummarySchema']>;

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
