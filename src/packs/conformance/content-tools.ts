/**
 * The suite's content, logging, progress and error tools.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type ToolDefinition, toolResult } from '../../host/pack.js';
import { EMBEDDED_TEXT, PNG_BASE64, WAV_BASE64 } from './fixtures.js';
import type { ConformanceState } from './resources.js';
import { NO_ARGS, text, tool } from './tool-kit.js';

export const contentTools: ToolDefinition<ConformanceState>[] = [
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
];
