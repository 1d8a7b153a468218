/**
 * A test-only pack, loaded by the daemon when MOOR_TEST_PACK=1: slow tools for
 * exercising admission, shutdown and the proxy's restart rules. `slow_write`
 * is deliberately not read-only, so a proxy must never replay it; `slow_read`
 * is, so a proxy may.
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

export function createTestingPack(): Pack<TestingState> {
  return definePack<TestingState>({
    name: 'testing',
    instructions: 'Testing: slow_read and slow_write exist only in test runs (MOOR_TEST_PACK=1).',
    tools: [slowRead, slowWrite],
    resources: [],
    open: () => ({}),
  });
}
