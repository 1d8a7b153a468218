/**
 * The suite's tools that ask the client for input on the 2025 era: sampling, elicitation, roots.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDefinition } from '../../host/pack.js';
import type { ConformanceState } from './resources.js';
import {
  describeElicitation,
  JSON_SCHEMA_2020_12,
  NO_ARGS,
  sampledText,
  sampling,
  text,
  tool,
} from './tool-kit.js';

export const inputTools: ToolDefinition<ConformanceState>[] = [
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
];
