/**
 * A test-only pack, loaded by the daemon when MOOR_TEST_PACK=1: slow tools for
 * exercising admission, shutdown and the proxy's restart rules. `slow_write`
 * is deliberately not read-only, so a proxy must never replay it; `slow_read`
 * is, so a proxy may. `broken_tool` fails like a defect (the log tests).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { definePack, defineTool, type Pack } from '../../host/pack.js';

export type TestingState = Record<string, never>;

const input = z.strictObject({
  ms: z.number().int().min(0).max(600_000).describe('How long to work, in milliseconds.'),
  label: z.string().max(200).optional().describe('Echoed back, to tell calls apart.'),
});

const output = z.object({ slept: z.number().int(), label: z.string().nullable(), pid: z.number().int() });

async function work(args: z.output<typeof input>, signal: AbortSignal) {
  await sleep(args.ms, undefined, { signal });
  const structured = { slept: args.ms, label: args.label ?? null, pid: process.pid };
  return { structured, text: `slept ${args.ms} ms${args.label ? ` (${args.label})` : ''}` };
}

const slowWrite = defineTool<TestingState, typeof input, typeof output>({
  name: 'slow_write',
  title: 'Slow write (test)',
  description: 'Test only: pretends to change something, taking `ms` milliseconds.',
  input,
  output,
  annotations: {
    title: 'Slow write (test)',
    readOnlyHint: false,
    destructiveHint: false,
    openWorldHint: false,
  },
  handler: (args, ctx) => work(args, ctx.signal),
});

const slowRead = defineTool<TestingState, typeof input, typeof output>({
  name: 'slow_read',
  title: 'Slow read (test)',
  description: 'Test only: reads nothing, taking `ms` milliseconds.',
  input,
  output,
  annotations: { title: 'Slow read (test)', readOnlyHint: true, openWorldHint: false },
  handler: (args, ctx) => work(args, ctx.signal),
});

const brokenInput = z.strictObject({});
const broken = defineTool<TestingState, typeof brokenInput, typeof output>({
  name: 'broken_tool',
  title: 'Broken tool (test)',
  description: 'Test only: fails the way a defect would (an unexpected exception), for the log tests.',
  input: brokenInput,
  output,
  annotations: { title: 'Broken tool (test)', readOnlyHint: true, openWorldHint: false },
  handler: () => {
    // A defect, not a failure moor raises on purpose: reading a property of nothing.
    const missing = undefined as unknown as { value: { result: never } };
    return missing.value.result;
  },
});

export function createTestingPack(): Pack<TestingState> {
  return definePack<TestingState>({
    name: 'testing',
    instructions:
      'Testing: slow_read, slow_write and broken_tool exist only in test runs (MOOR_TEST_PACK=1).',
    tools: [broken, slowRead, slowWrite],
    resources: [],
    open: () => ({}),
  });
}
