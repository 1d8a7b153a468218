/**
 * The tasks conformance pack: the tools the MCP conformance suite's tasks
 * scenarios call (greet, slow_compute, failing_job, protocol_error_job,
 * confirm_delete, multi_input, test_tool_with_task). Test only: loaded by
 * `moor daemon run --pack tasks-conformance` (or MOOR_PACKS=tasks-conformance).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type InputResponse, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ToolError } from '../../errors.js';
import { definePack, defineTool, type Pack } from '../../host/pack.js';
import { protocolError } from '../../host/protocol-error.js';

export type TasksTestState = Record<string, never>;

export const TASKS_CONFORMANCE_PACK = 'tasks-conformance';

const text = z.object({ text: z.string() });
const annotations = { readOnlyHint: true, openWorldHint: false } as const;

function accepted(response: InputResponse | undefined): Record<string, unknown> | undefined {
  const r = response as { action?: unknown; content?: unknown } | undefined;
  return r?.action === 'accept' && typeof r.content === 'object' && r.content !== null
    ? (r.content as Record<string, unknown>)
    : undefined;
}

const greet = defineTool<TasksTestState, z.ZodObject<{ name: z.ZodString }>, typeof text>({
  name: 'greet',
  title: 'Greet',
  description: 'Synchronous: answers "Hello, {name}!".',
  input: z.object({ name: z.string() }),
  output: text,
  annotations,
  handler: (args) => ({ structured: { text: `Hello, ${args.name}!` }, text: `Hello, ${args.name}!` }),
});

const slowInput = z.object({
  seconds: z.number().min(0).max(600).default(1),
  label: z.string().max(200).optional(),
});

const slowCompute = defineTool<TasksTestState, typeof slowInput, typeof text>({
  name: 'slow_compute',
  title: 'Slow compute',
  description: 'Task-capable: works for `seconds` seconds, reporting progress each second; cancellable.',
  input: slowInput,
  output: text,
  annotations,
  task: { eligibility: 'optional', cancellation: 'abort' },
  handler: async (args, ctx) => {
    const whole = Math.floor(args.seconds);
    for (let i = 0; i < whole; i++) {
      await ctx.progress(i, args.seconds, `computing: ${i} of ${args.seconds} s`);
      await sleep(1000, undefined, { signal: ctx.signal });
    }
    const rest = args.seconds - whole;
    if (rest > 0) await sleep(rest * 1000, undefined, { signal: ctx.signal });
    const out = `Computed after ${args.seconds} s${args.label ? ` (${args.label})` : ''}.`;
    return { structured: { text: out }, text: out };
  },
});

const slowDetached = defineTool<TasksTestState, typeof slowInput, typeof text>({
  name: 'slow_detached',
  title: 'Slow detached job',
  description: 'Task-capable (moor tests): like slow_compute, but tasks/cancel detaches instead of aborting.',
  input: slowInput,
  output: text,
  annotations,
  task: { eligibility: 'optional', cancellation: 'detach' },
  handler: async (args) => {
    await sleep(args.seconds * 1000);
    const out = `Finished after ${args.seconds} s${args.label ? ` (${args.label})` : ''}.`;
    return { structured: { text: out }, text: out };
  },
});

const failingJob = defineTool<TasksTestState, z.ZodObject<Record<string, never>>, typeof text>({
  name: 'failing_job',
  title: 'Failing job',
  description: 'Task only: after about a second, ends with a tool error (isError).',
  input: z.object({}),
  output: text,
  annotations,
  task: { eligibility: 'required', cancellation: 'abort' },
  handler: async (_args, ctx) => {
    await sleep(1000, undefined, { signal: ctx.signal });
    throw new ToolError('INVALID_ARGUMENTS', 'failing_job failed on purpose.');
  },
});

const protocolErrorJob = defineTool<TasksTestState, z.ZodObject<Record<string, never>>, typeof text>({
  name: 'protocol_error_job',
  title: 'Protocol error job',
  description: 'Task-capable: fails with a JSON-RPC error (the task ends failed).',
  input: z.object({}),
  output: text,
  annotations,
  task: { eligibility: 'optional', cancellation: 'abort' },
  handler: async () => {
    await sleep(100);
    throw protocolError('INTERNAL', 'protocol_error_job failed on purpose', {
      reason: 'test',
    });
  },
});

const confirmSchema = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, description: 'Delete it?' } },
  required: ['confirm'],
};

const confirmDelete = defineTool<TasksTestState, z.ZodObject<{ filename: z.ZodString }>, typeof text>({
  name: 'confirm_delete',
  title: 'Confirm delete',
  description:
    'Task-capable: asks for confirmation (elicitation) before "deleting" a file (nothing is deleted).',
  input: z.object({ filename: z.string() }),
  output: text,
  annotations,
  task: { eligibility: 'optional', cancellation: 'abort' },
  handler: async (args, ctx) => {
    const answers = await ctx.requestInput({
      confirm: inputRequired.elicit({ message: `Delete ${args.filename}?`, requestedSchema: confirmSchema }),
    });
    const out =
      accepted(answers.confirm)?.confirm === true ? `Deleted ${args.filename}.` : `Kept ${args.filename}.`;
    return { structured: { text: out }, text: out };
  },
});

const nameSchema = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const }, confirm: { type: 'boolean' as const } },
};

const multiInput = defineTool<TasksTestState, z.ZodObject<Record<string, never>>, typeof text>({
  name: 'multi_input',
  title: 'Multi input',
  description: 'Task-capable: asks two questions at once.',
  input: z.object({}),
  output: text,
  annotations,
  task: { eligibility: 'optional', cancellation: 'abort' },
  handler: async (_args, ctx) => {
    const answers = await ctx.requestInput({
      first: inputRequired.elicit({ message: 'First answer?', requestedSchema: nameSchema }),
      second: inputRequired.elicit({ message: 'Second answer?', requestedSchema: nameSchema }),
    });
    const out = `Got ${String(accepted(answers.first)?.name ?? '?')} and ${String(accepted(answers.second)?.name ?? '?')}.`;
    return { structured: { text: out }, text: out };
  },
});

const userNameRequest = () =>
  inputRequired.elicit({
    message: 'What is your name?',
    requestedSchema: {
      type: 'object' as const,
      properties: { name: { type: 'string' as const } },
      required: ['name'],
    },
  });

const toolWithTask = defineTool<TasksTestState, z.ZodObject<Record<string, never>>, typeof text>({
  name: 'test_tool_with_task',
  title: 'Input, then a task',
  description: 'Task only: asks for a name (multi-round-trip) before the task starts, then greets as a task.',
  input: z.object({}),
  output: text,
  annotations,
  task: {
    eligibility: 'required',
    cancellation: 'abort',
    inputBeforeTask: () => ({ user_name: userNameRequest() }),
  },
  handler: async (_args, ctx) => {
    const answers = await ctx.requestInput({ user_name: userNameRequest() });
    await sleep(200, undefined, { signal: ctx.signal });
    const out = `Hello, ${String(accepted(answers.user_name)?.name ?? 'stranger')}!`;
    return { structured: { text: out }, text: out };
  },
});

export function createTasksTestPack(): Pack<TasksTestState> {
  return definePack<TasksTestState>({
    name: TASKS_CONFORMANCE_PACK,
    instructions: 'Tasks conformance: test-only tools for the tasks extension scenarios.',
    tools: [
      greet,
      slowCompute,
      slowDetached,
      failingJob,
      protocolErrorJob,
      confirmDelete,
      multiInput,
      toolWithTask,
    ],
    resources: [],
    open: () => ({}),
  });
}
