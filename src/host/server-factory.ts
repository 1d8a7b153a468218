/**
 * The per-connection / per-request server factory. Everything expensive lives
 * in the Catalog (built once); each call here makes one low-level SDK Server
 * and binds the prebuilt handlers to a Binding. We use the low-level Server
 * rather than McpServer so that tools/list order, result shapes and the cost
 * of an instance are ours to control.
 */
import { type McpRequestContext, type McpServerFactory, Server } from '@modelcontextprotocol/server';
import { CATALOG_CACHE_HINT, CORPUS_CACHE_HINT } from '../protocol/constants.js';
import type { Binding } from './binding.js';
import type { Catalog } from './catalog.js';
import { listResources, readResource } from './resources.js';
import { callTool } from './tool-call.js';

export interface ServerIdentity {
  readonly name: string;
  readonly title: string;
  readonly version: string;
}

export interface FactoryOptions {
  readonly identity: ServerIdentity;
  /** Which binding this connection or request runs against. */
  bind(ctx: McpRequestContext): Binding;
  onInternalError(error: unknown, tool: string): void;
}

const CACHE_HINTS = {
  'server/discover': CATALOG_CACHE_HINT,
  'tools/list': CATALOG_CACHE_HINT,
  'prompts/list': CATALOG_CACHE_HINT,
  'resources/templates/list': CATALOG_CACHE_HINT,
  'resources/list': CORPUS_CACHE_HINT,
  'resources/read': CORPUS_CACHE_HINT,
} as const;

export function createServerFactory(catalog: Catalog, options: FactoryOptions): McpServerFactory {
  const capabilities = {
    tools: { listChanged: true },
    resources: { listChanged: true },
  };
  const toolsList = { tools: catalog.tools };
  const templatesList = { resourceTemplates: catalog.resourceTemplates };

  return (ctx) => {
    const binding = options.bind(ctx);
    const server = new Server(
      { name: options.identity.name, title: options.identity.title, version: options.identity.version },
      { capabilities, instructions: catalog.instructions, cacheHints: CACHE_HINTS },
    );
    server.setRequestHandler('tools/list', () => toolsList);
    server.setRequestHandler('tools/call', (request, reqCtx) => {
      const progressToken = reqCtx.mcpReq._meta?.progressToken;
      return callTool(catalog, binding, request.params, {
        signal: reqCtx.mcpReq.signal,
        onInternalError: options.onInternalError,
        progress: async (progress, total, message) => {
          if (progressToken === undefined) return;
          await reqCtx.mcpReq.notify({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message ? { message } : {}),
            },
          });
        },
      });
    });
    server.setRequestHandler('resources/list', (request) =>
      listResources(catalog, binding, request.params?.cursor),
    );
    server.setRequestHandler('resources/templates/list', () => templatesList);
    server.setRequestHandler('resources/read', (request) =>
      readResource(catalog, binding, request.params.uri),
    );
    return server;
  };
}
