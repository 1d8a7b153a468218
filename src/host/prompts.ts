/**
 * prompts/list and prompts/get over the catalog's prompts. Arguments are
 * validated with the prompt's zod object (invalid ones are -32602, like an
 * unknown prompt); a prompt may ask the client for input exactly as a tool
 * does (input.ts).
 */
import type {
  GetPromptRequest,
  GetPromptResult,
  InputRequiredResult,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import type { CallerScope, CallWorkspace } from './call-scope.js';
import type { Catalog } from './catalog.js';
import { hostContext } from './host-context.js';
import { InputRequiredSignal, type InputStateCodec, inputChannel } from './input.js';
import type { PromptContext } from './pack.js';
import { protocolError } from './protocol-error.js';

/** `inputState` seals a prompt's input rounds, as the server's tools/call does. */
export function installPrompts(
  server: Server,
  catalog: Catalog,
  scope: CallerScope,
  inputState: InputStateCodec,
): void {
  const list = { prompts: catalog.prompts };
  server.setRequestHandler('prompts/list', () => list);
  server.setRequestHandler('prompts/get', (request, ctx) =>
    getPrompt(server, catalog, scope, request, ctx, inputState),
  );
}

async function getPrompt(
  server: Server,
  catalog: Catalog,
  scope: CallerScope,
  request: GetPromptRequest,
  reqCtx: ServerContext,
  inputState: InputStateCodec,
): Promise<GetPromptResult | InputRequiredResult> {
  const { name } = request.params;
  const entry = catalog.prompt(name);
  if (!entry) {
    throw protocolError(
      'UNKNOWN_PROMPT',
      `Unknown prompt: ${name}. Call prompts/list for the prompts this server offers.`,
      { prompt: name },
    );
  }
  let args: unknown = request.params.arguments ?? {};
  if (entry.definition.args !== undefined) {
    const parsed = entry.definition.args.safeParse(args);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`,
      );
      throw protocolError(
        'INVALID_ARGUMENTS',
        `Invalid arguments for prompt ${name}: ${problems.join('; ')}. Call prompts/list for its arguments.`,
        { prompt: name },
      );
    }
    args = parsed.data;
  }
  const channel = inputChannel(reqCtx, `prompts/get:${name}`, inputState);
  let target: CallWorkspace;
  try {
    target = await scope.select(undefined);
  } catch (error) {
    if (!(error instanceof MoorError)) throw error;
    throw protocolError(error.code, error.message, { prompt: name });
  }
  const ctx: PromptContext<unknown> = {
    state: target.stateOf(entry.pack),
    workspaceRoot: target.root,
    signal: reqCtx.mcpReq.signal,
    host: hostContext(server, reqCtx, catalog.events, scope),
    requestInput: channel.requestInput,
  };
  try {
    return await entry.definition.handler(args, ctx);
  } catch (error) {
    if (error instanceof InputRequiredSignal) return channel.inputRequired(error);
    throw error;
  }
}
