/** The suite's prompts, including one that asks for input before it answers (MRTR on prompts/get). */
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { definePrompt } from '../../host/pack.js';
import { PNG_BASE64 } from './fixtures.js';
import type { ConformanceState } from './resources.js';

const ARG1_VALUES = ['paris', 'park', 'party', 'pasta'];

export const conformancePrompts = [
  definePrompt<ConformanceState, z.ZodObject>({
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    handler: () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    args: z.object({
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    }),
    complete: { arg1: (value) => ARG1_VALUES.filter((v) => v.startsWith(value)) },
    handler: (args: { arg1: string; arg2: string }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` },
        },
      ],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    args: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    handler: (args: { resourceUri: string }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: args.resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  }),
  definePrompt<ConformanceState, z.ZodObject>({
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    handler: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  }),
  definePrompt<ConformanceState, z.ZodObject>({
    name: 'test_input_required_result_prompt',
    description: 'MRTR: a prompt that asks the user for context first',
    handler: async (_args, ctx) => {
      const answers = await ctx.requestInput({
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          },
        }),
      });
      const context = elicitedString(answers.user_context, 'context');
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Prompt with context: ${context}` } }],
      };
    },
  }),
];

/** A string field of an accepted elicitation, or "unknown". */
export function elicitedString(response: unknown, field: string): string {
  const content = (response as { content?: Record<string, unknown> } | undefined)?.content;
  const value = content?.[field];
  return typeof value === 'string' ? value : 'unknown';
}
