/**
 * The conformance pack: the fixtures the official MCP conformance suite
 * calls by name (tools, resources, prompts, diagnostic hooks), for both
 * eras. Test only: loaded with `--pack conformance`, never by default. It
 * holds no behaviour of its own worth testing — what the suite checks is the
 * host (logging, completions, subscriptions, input rounds, cache hints,
 * errors), which serves every pack the same way.
 */
import { definePack, type Pack } from '../../host/pack.js';
import { conformancePrompts } from './prompts.js';
import { type ConformanceState, fixedResources, templateResources } from './resources.js';
import { conformanceTools } from './tools.js';

export function createConformancePack(): Pack<ConformanceState> {
  return definePack<ConformanceState>({
    name: 'conformance',
    instructions: 'Conformance: fixtures for the official MCP conformance suite (test only).',
    tools: conformanceTools,
    resources: [fixedResources, templateResources],
    prompts: conformancePrompts,
    open: () => ({}),
  });
}
