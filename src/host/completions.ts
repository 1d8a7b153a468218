/**
 * completion/complete: argument completion for prompts (ref/prompt) and for
 * resource template variables (ref/resource), from the completers packs
 * declare. An argument without a completer completes to nothing; an unknown
 * prompt or template is -32602.
 */
import type { CompleteRequest, CompleteResult, Server } from '@modelcontextprotocol/server';
import type { Catalog } from './catalog.js';
import type { Completer } from './pack.js';
import { protocolError } from './protocol-error.js';

/** The spec's cap on values in one answer. */
const MAX_VALUES = 100;

export function installCompletions(server: Server, catalog: Catalog): void {
  server.setRequestHandler('completion/complete', (request) => complete(catalog, request));
}

export function complete(catalog: Catalog, request: CompleteRequest): CompleteResult {
  const { ref, argument } = request.params;
  const context = request.params.context?.arguments ?? {};
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt') {
    const prompt = catalog.prompt(ref.name);
    if (!prompt) {
      throw protocolError('UNKNOWN_PROMPT', `Unknown prompt: ${ref.name}`, { prompt: ref.name });
    }
    completer = prompt.definition.complete?.[argument.name];
  } else {
    const owner = catalog.resourceFamilies.find(({ family }) => family.uriTemplate === ref.uri);
    if (!owner) {
      throw protocolError('UNKNOWN_RESOURCE_TEMPLATE', `Unknown resource template: ${ref.uri}`, {
        uri: ref.uri,
      });
    }
    completer = owner.family.complete?.[argument.name];
  }
  const values = completer ? completer(argument.value, context) : [];
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}
