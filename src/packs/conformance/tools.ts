/**
 * The suite's tools, by the names its scenarios call: content types,
 * logging, progress, errors, input from the client (sampling, elicitation,
 * roots — over requestInput, so the same tool works on both eras), a raw
 * JSON Schema 2020-12 input, and the diagnostic hooks of the 2026-07-28
 * scenarios (list mutations, capability and logging probes).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type CallToolResult, type InputRequest, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  defineTool,
  type RawToolResult,
  type ToolContext,
  type ToolDefinition,
  toolResult,
} from '../../host/pack.js';
import { EMBEDDED_TEXT, PNG_BASE64, WAV_BASE64 } from './fixtures.js';
import { elicitedString } from './prompts.js';
import type { ConformanceState } from './resources.js';

type Ctx = ToolContext<ConformanceState>;
const NO_ARGS = z.object({});

function tool<I extends z.ZodType>(
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

function text(value: string, more: Partial<CallToolResult> = {}): RawToolResult {
  return toolResult({ content: [{ type: 'text', text: value }], ...more });
}

const textElicitation = (
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

const sampling = (prompt: string, maxTokens: number): InputRequest =>
  inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens,
  });

function sampledText(response: unknown): string {
  const content = (response as { content?: { type?: string; text?: unknown } } | undefined)?.content;
  return typeof content?.text === 'string' ? content.text : 'no response';
}

function rootCount(response: unknown): number {
  const roots = (response as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(roots) ? roots.length : 0;
}

const JSON_SCHEMA_2020_12 = {
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

export const conformanceTools: ToolDefinition<ConformanceState>[] = [
  tool('test_simple_text', 'Tests simple text content response', NO_ARGS, () =>
    text('This is a simple text response for testing.'),
  ),
  tool('test_image_content', 'Tests image content response', NO_ARGS, () =>
    toolResult({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  ),
  tool('test_audio_content', 'Tests audio content response', NO_ARGS, () =>
    toolResult({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  ),
  tool('test_embedded_resource', 'Tests embedded resource content response', NO_ARGS, () =>
    toolResult({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: EMBEDDED_TEXT },
        },
      ],
    }),
  ),
  tool('test_multiple_content_types', 'Tests response with multiple content types', NO_ARGS, () =>
    toolResult({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  ),
  tool(
    'test_tool_with_logging',
    'Tests tool that emits log messages during execution',
    NO_ARGS,
    async (_a, ctx) => {
      await ctx.host.log('info', 'Tool execution started');
      await sleep(50, undefined, { signal: ctx.signal });
      await ctx.host.log('info', 'Tool processing data');
      await sleep(50, undefined, { signal: ctx.signal });
      await ctx.host.log('info', 'Tool execution completed');
      return text('Tool with logging executed successfully');
    },
  ),
  tool(
    'test_tool_with_progress',
    'Tests tool that reports progress notifications',
    NO_ARGS,
    async (_a, ctx) => {
      for (const step of [0, 50, 100]) {
        if (step > 0) await sleep(50, undefined, { signal: ctx.signal });
        await ctx.progress(step, 100, `Completed step ${step} of 100`);
      }
      return text('Progress reported: 0, 50, 100 of 100');
    },
  ),
  tool('test_error_handling', 'Tests error response handling', NO_ARGS, () =>
    text('This tool intentionally returns an error for testing', { isError: true }),
  ),
  tool(
    'test_sampling',
    'Tests server-initiated sampling (LLM completion request)',
    z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    async (args, ctx) => {
      const answers = await ctx.requestInput({ completion: sampling(args.prompt, 100) });
      return text(`LLM response: ${sampledText(answers.completion)}`);
    },
  ),
  tool(
    'test_elicitation',
    'Tests server-initiated elicitation (user input request)',
    z.object({ message: z.string().describe('The message to show the user') }),
    async (args, ctx) => {
      const answers = await ctx.requestInput({
        user: inputRequired.elicit({
          message: args.message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "The user's name" },
              email: { type: 'string', description: "The user's email address" },
            },
            required: ['username', 'email'],
          },
        }),
      });
      return text(`User response: ${describeElicitation(answers.user)}`);
    },
  ),
  tool(
    'test_elicitation_sep1034_defaults',
    'Tests elicitation with default values (SEP-1034)',
    NO_ARGS,
    async (_a, ctx) => {
      const answers = await ctx.requestInput({
        form: inputRequired.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        }),
      });
      return text(`Elicitation completed: ${describeElicitation(answers.form)}`);
    },
  ),
  tool(
    'test_elicitation_sep1330_enums',
    'Tests elicitation with enum schemas (SEP-1330)',
    NO_ARGS,
    async (_a, ctx) => {
      const answers = await ctx.requestInput({
        form: inputRequired.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: {
                type: 'string',
                description: 'Select one option',
                enum: ['option1', 'option2', 'option3'],
              },
              titledSingle: {
                type: 'string',
                description: 'Select one option with titles',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Select one option (legacy)',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Select multiple options',
                minItems: 1,
                maxItems: 3,
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Select multiple options with titles',
                minItems: 1,
                maxItems: 3,
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        }),
      });
      return text(`Elicitation completed: ${describeElicitation(answers.form)}`);
    },
  ),
  tool(
    'json_schema_2020_12_tool',
    'Tool with JSON Schema 2020-12 features ($schema, $defs, $ref, additionalProperties)',
    z
      .strictObject({
        name: z.string().optional(),
        address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
        contactMethod: z.enum(['phone', 'email']).optional(),
        phone: z.string().optional(),
        email: z.string().optional(),
      })
      .refine((a) => (a.contactMethod === 'phone' ? a.phone : a.email) !== undefined, {
        message: 'give phone when contactMethod is phone, else email',
      }),
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    { inputJsonSchema: JSON_SCHEMA_2020_12 },
  ),

  // ---- 2026-07-28: multi-round-trip input (SEP-2322) ----
  tool('test_input_required_result_elicitation', 'MRTR: asks for the user name', NO_ARGS, async (_a, ctx) => {
    const answers = await ctx.requestInput({ user_name: textElicitation('What is your name?', 'name') });
    return text(`Hello, ${elicitedString(answers.user_name, 'name')}!`);
  }),
  tool('test_input_required_result_sampling', 'MRTR: asks the client to sample', NO_ARGS, async (_a, ctx) => {
    const answers = await ctx.requestInput({
      capital_question: sampling('What is the capital of France?', 100),
    });
    return text(`Sampling result: ${sampledText(answers.capital_question)}`);
  }),
  tool(
    'test_input_required_result_list_roots',
    "MRTR: asks for the client's roots",
    NO_ARGS,
    async (_a, ctx) => {
      const answers = await ctx.requestInput({ client_roots: inputRequired.listRoots() });
      return text(`Found ${rootCount(answers.client_roots)} root(s)`);
    },
  ),
  tool(
    'test_input_required_result_request_state',
    'MRTR: a confirmation carried with requestState',
    NO_ARGS,
    async (_a, ctx) => {
      const answers = await ctx.requestInput({ confirm: textElicitation('Please confirm', 'ok', 'boolean') });
      const ok = (answers.confirm as { content?: { ok?: unknown } }).content?.ok === true;
      return text(
        ok ? 'state-ok: requestState verified, confirmed' : 'state-ok: requestState verified, not confirmed',
      );
    },
  ),
  tool(
    'test_input_required_result_multiple_inputs',
    'MRTR: three questions in one round',
    NO_ARGS,
    async (_a, ctx) => {
      const answers = await ctx.requestInput({
        user_name: textElicitation('What is your name?', 'name'),
        greeting: sampling('Generate a greeting', 50),
        client_roots: inputRequired.listRoots(),
      });
      return text(
        `Name: ${elicitedString(answers.user_name, 'name')}; Greeting: ${sampledText(answers.greeting)}; Roots: ${rootCount(answers.client_roots)}`,
      );
    },
  ),
  tool(
    'test_input_required_result_multi_round',
    'MRTR: two rounds of questions',
    NO_ARGS,
    async (_a, ctx) => {
      const first = await ctx.requestInput({ step1: textElicitation('Step 1: What is your name?', 'name') });
      const second = await ctx.requestInput({
        step2: textElicitation('Step 2: What is your favorite color?', 'color'),
      });
      return text(
        `Multi-round complete for ${elicitedString(first.step1, 'name')} who likes ${elicitedString(second.step2, 'color')}`,
      );
    },
  ),
  tool(
    'test_input_required_result_tampered_state',
    'MRTR: integrity-protected requestState',
    NO_ARGS,
    async (_a, ctx) => {
      await ctx.requestInput({ confirm: textElicitation('Please confirm', 'ok', 'boolean') });
      return text('integrity-ok: state verified');
    },
  ),
  tool(
    'test_input_required_result_capabilities',
    'MRTR: asks only for what the client declared',
    NO_ARGS,
    async (_a, ctx) => {
      const declared = ctx.host.clientCapabilities ?? {};
      const requests: Record<string, InputRequest> = {};
      if (declared.elicitation) requests.elicit_input = textElicitation('Elicitation input', 'value');
      if (declared.sampling) requests.sample_input = sampling('Sample request', 50);
      if (Object.keys(requests).length === 0) return text('No supported capabilities declared');
      const answers = await ctx.requestInput(requests);
      return text(`capabilities-ok: received ${Object.keys(answers).join(',')}`);
    },
  ),

  // ---- 2026-07-28 diagnostics (server-stateless) ----
  tool(
    'test_missing_capability',
    'Needs sampling: refused with -32021 when the client lacks it',
    NO_ARGS,
    async (_a, ctx) => {
      const answers = await ctx.requestInput({ probe: sampling('Capability probe', 10) });
      return text(`Success: ${sampledText(answers.probe)}`);
    },
  ),
  tool(
    'test_streaming_elicitation',
    'Asks for input on the request stream (never a separate request)',
    NO_ARGS,
    async (_a, ctx) => {
      await ctx.progress(50, 100, 'asking');
      const answers = await ctx.requestInput({ detail: textElicitation('Any detail to add?', 'detail') });
      return text(`Streaming complete: ${elicitedString(answers.detail, 'detail')}`);
    },
  ),
  tool(
    'test_logging_tool',
    'Logs once; clients that set no log level receive nothing',
    NO_ARGS,
    async (_a, ctx) => {
      await ctx.host.log('info', 'Diagnostic trace logging activated');
      return text('Logging evaluated');
    },
  ),
  tool('test_trigger_tool_change', 'Announces that the tool list changed', NO_ARGS, (_a, ctx) => {
    ctx.host.listChanged('tools');
    return text('Mutation triggered');
  }),
  tool('test_trigger_prompt_change', 'Announces that the prompt list changed', NO_ARGS, (_a, ctx) => {
    ctx.host.listChanged('prompts');
    return text('Mutation triggered');
  }),
  tool(
    'test_trigger_resource_update',
    'Announces that test://watched-resource changed',
    NO_ARGS,
    (_a, ctx) => {
      ctx.host.resourceUpdated('test://watched-resource');
      return text('Update triggered');
    },
  ),
];

function describeElicitation(response: unknown): string {
  const r = (response ?? {}) as { action?: unknown; content?: unknown };
  return `action=${String(r.action)}, content=${JSON.stringify(r.content ?? {})}`;
}
