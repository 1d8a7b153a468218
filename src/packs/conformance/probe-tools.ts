/**
 * The 2026-07-28 scenarios' tools: multi-round-trip input and the list-mutation and capability probes.
 */
import { type InputRequest, inputRequired } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../../host/pack.js';
import { elicitedString } from './prompts.js';
import type { ConformanceState } from './resources.js';
import { NO_ARGS, rootCount, sampledText, sampling, text, textElicitation, tool } from './tool-kit.js';

export const probeTools: ToolDefinition<ConformanceState>[] = [
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
