/**
 * tools/call, the same on every era and every hop: look the tool up in the
 * catalog and run it (tool-run.ts). Only an unknown tool is a JSON-RPC error;
 * a ProtocolError a handler throws is one too, and passes through untouched.
 */
import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import type { Binding } from './binding.js';
import type { Catalog } from './catalog.js';
import { protocolError } from './protocol-error.js';
import { type CallEnvironment, isHostSignal, runTool } from './tool-run.js';

export {
  type CallEnvironment,
  errorResult,
  SILENT_HOST,
  withoutInBandArguments,
} from './tool-run.js';

export interface CallRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
}

/**
 * Errors that carry their own answer pass through callTool untouched: a
 * JSON-RPC error for the whole call (ProtocolError), or a host signal such
 * as "input required".
 */
function passesThrough(error: unknown): boolean {
  return error instanceof ProtocolError || isHostSignal(error);
}

export async function callTool(
  catalog: Catalog,
  binding: Binding,
  request: CallRequest,
  env: CallEnvironment,
): Promise<CallToolResult> {
  const entry = catalog.tool(request.name);
  if (!entry) {
    throw protocolError(
      'UNKNOWN_TOOL',
      `Unknown tool: ${request.name}. Call tools/list for the tools this server offers.`,
      { tool: request.name },
    );
  }
  return runTool(entry, binding, request.arguments ?? {}, env, passesThrough);
}
