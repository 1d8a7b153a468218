/**
 * The small kit the conformance tools are written with: one constructor for a
 * read-only tool, text results, and the input requests the suite asks for.
 */
import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  defineTool,
  type RawToolResult,
  type ToolContext,
  type ToolDefinition,
  toolResult,
} from '../../host/pack.js';
import type { ConformanceState } from './resources.js';

export type Ctx = ToolContext<ConformanceState>;
export const NO_ARGS = z.object({});

export function tool<I extends z.ZodType>(
  name: string,
  description: string,
  input: I,
  handler: (args: z.output<I>, ctx: Ctx) => RawToolResult | Promise<RawToolResult>,
  extra: Partial<Pick<ToolDefinition<ConformanceState>, 'inputJsonSchema'>> = {},
): ToolDefinition<ConformanceState> {
  return defineTool<ConformanceState, I, z.ZodType>({
    name,
    title: name,
    description,
    input,
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler,
    ...extra,
  });
}

export function text(value: string, more: Partial<CallToolResult> = {}): RawToolResult {
  return toolResult({ content: [{ type: 'text', text: value }], ...more });
}

export const textElicitation = (
  message: string,
  field: string,
  type: 'string' | 'boolean' = 'string',
): InputRequest =>
  inputRequired.elicit({
    message,
    requestedSchema: {
      type: 'object',
      properties: { [field]: type === 'string' ? { type: 'string' } : { type: 'boolean' } },
      required: [field],
    },
  });

export const sampling = (prompt: string, maxTokens: number): InputRequest =>
  inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens,
  });

export function sampledText(response: unknown): string {
  const content = (response as { content?: { type?: string; text?: unknown } } | undefined)?.content;
  return typeof content?.text === 'string' ? content.text : 'no response';
}

export function rootCount(response: unknown): number {
  const roots = (response as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(roots) ? roots.length : 0;
}

export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

export function describeElicitation(response: unknown): string {
  const r = (response ?? {}) as { action?: unknown; content?: unknown };
  return `action=${String(r.action)}, content=${JSON.stringify(r.content ?? {})}`;
}
