/**
 * Server→client requests on the stateless legacy (2025-era) HTTP leg: a
 * tool's elicitation or sampling request rides the tools/call POST's SSE
 * stream, the client answers with a new POST, and the legacy leg routes that
 * answer to the instance waiting for it (src/http/legacy-leg.ts) — no
 * session, no Mcp-Session-Id. Also: the leg answers everything else exactly
 * as the SDK's own stateless fallback does.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, inputRequired, type McpServerFactory } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IDENTITY, SERVER_PREAMBLE } from '../../src/app/identity.js';
import { AdmissionGate } from '../../src/host/admission.js';
import { Catalog } from '../../src/host/catalog.js';
import { definePack, defineTool, erasePack, toolResult } from '../../src/host/pack.js';
import { createServerFactory } from '../../src/host/server-factory.js';
import { createLegacyLeg, ResponseRoutes, withLegacyLeg } from '../../src/http/legacy-leg.js';
import { until } from '../helpers/until.js';
import { ACCEPT_BOTH, fixture, type Started, start } from './helpers.js';

const askPack = definePack<Record<string, never>>({
  name: 'ask',
  instructions: 'Test pack: tools that ask the client.',
  open: () => ({}),
  resources: [],
  tools: [
    defineTool({
      name: 'ask',
      title: 'Ask',
      description: 'Asks the user a question (form elicitation) and returns the answer.',
      input: z.object({ question: z.string() }),
      annotations: { readOnlyHint: true },
      handler: async (args, ctx) => {
        const answers = await ctx.requestInput({
          answer: inputRequired.elicit({
            message: args.question,
            requestedSchema: {
              type: 'object',
              properties: { reply: { type: 'string' } },
              required: ['reply'],
            },
          }),
        });
        return toolResult({ content: [{ type: 'text', text: JSON.stringify(answers.answer) }] });
      },
    }),
    defineTool({
      name: 'sample',
      title: 'Sample',
      description: 'Asks the client for an LLM completion.',
      input: z.object({ prompt: z.string() }),
      annotations: { readOnlyHint: true },
      handler: async (args, ctx) => {
        const answers = await ctx.requestInput({
          completion: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
            maxTokens: 50,
          }),
        });
        return toolResult({ content: [{ type: 'text', text: JSON.stringify(answers.completion) }] });
      },
    }),
  ],
});

const fx = fixture();
const catalog = new Catalog([erasePack(askPack)], SERVER_PREAMBLE);
let server: Started;
const open: Client[] = [];

/** An SDK client in its default (legacy) mode that answers elicitation and sampling. */
async function connect(
  options: {
    elicit?: (message: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
    capabilities?: boolean;
  } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; asked: string[] }> {
  const asked: string[] = [];
  const declare = options.capabilities !== false;
  const client = new Client(
    { name: 'moor-legacy-roundtrip', version: '1.0.0' },
    declare ? { capabilities: { elicitation: {}, sampling: {} } } : {},
  );
  if (declare) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      const content = await (options.elicit ?? ((message: string) => ({ reply: `answer to ${message}` })))(
        request.params.message,
      );
      return { action: 'accept', content } as never;
    });
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content;
      asked.push(first !== undefined && 'text' in first ? String(first.text) : '?');
      return {
        role: 'assistant',
        content: { type: 'text', text: 'sampled words' },
        model: 'test-model',
        stopReason: 'endTurn',
      } as never;
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  open.push(client);
  return { client, transport, asked };
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

beforeAll(async () => {
  // As the daemon does for a catalog with tools that shape their own results (catalog.leanSafe).
  server = await start(fx, { catalog, lean: false });
});

afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => {});
});

afterAll(async () => {
  await server.endpoint.close(500);
  fx.close();
});

describe('legacy HTTP: server→client requests without a session', () => {
  it('an eliciting tool completes with the elicited content', async () => {
    const { client, transport, asked } = await connect();
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: 'ask', arguments: { question: 'Your name?' } });
    expect(asked).toEqual(['Your name?']);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      action: 'accept',
      content: { reply: 'answer to Your name?' },
    });
    expect(server.endpoint.awaitingClient()).toBe(0);
  });

  it('a sampling tool completes with the sampled message', async () => {
    const { client, asked } = await connect();
    const result = await client.callTool({ name: 'sample', arguments: { prompt: 'Say hi' } });
    expect(asked).toEqual(['Say hi']);
    expect(JSON.parse(textOf(result))).toMatchObject({
      role: 'assistant',
      content: { type: 'text', text: 'sampled words' },
      model: 'test-model',
    });
    expect(server.endpoint.awaitingClient()).toBe(0);
  });

  it('two concurrent eliciting calls each get their own answer', async () => {
    // Both instances number their first outbound request 0; the answers must not cross.
    const gates = new Map<string, () => void>();
    const { client, asked } = await connect({
      elicit: (message) =>
        new Promise((resolve) => {
          gates.set(message, () => resolve({ reply: `for ${message}` }));
        }),
    });
    const first = client.callTool({ name: 'ask', arguments: { question: 'first' } });
    const second = client.callTool({ name: 'ask', arguments: { question: 'second' } });
    await until(() => gates.size === 2);
    expect(asked.sort()).toEqual(['first', 'second']);
    expect(server.endpoint.awaitingClient()).toBe(2);
    gates.get('second')?.(); // the second call is answered first
    const secondResult = await second;
    expect(server.endpoint.awaitingClient()).toBe(1);
    gates.get('first')?.();
    const firstResult = await first;
    expect(JSON.parse(textOf(firstResult)).content).toEqual({ reply: 'for first' });
    expect(JSON.parse(textOf(secondResult)).content).toEqual({ reply: 'for second' });
    expect(server.endpoint.awaitingClient()).toBe(0);
  });

  it('a posted response with an unknown id changes nothing', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { client, asked } = await connect({
      elicit: async () => {
        await gate;
        return { reply: 'the real answer' };
      },
    });
    const call = client.callTool({ name: 'ask', arguments: { question: 'wait for me' } });
    await until(() => asked.length === 1);
    const headers = {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      'mcp-protocol-version': '2025-11-25',
    };
    for (const id of [0, 'moor-unknown-0', 'nope']) {
      const answer = await fetch(server.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          result: { action: 'accept', content: { reply: 'forged' } },
        }),
      });
      expect(answer.status).toBe(202);
      expect(await answer.text()).toBe('');
    }
    expect(server.endpoint.awaitingClient()).toBe(1);
    release();
    const result = await call;
    expect(JSON.parse(textOf(result)).content).toEqual({ reply: 'the real answer' });
    expect(server.endpoint.awaitingClient()).toBe(0);
  });

  it('a client that goes away mid-call leaves no waiting entry behind', async () => {
    const { client, asked } = await connect({ elicit: () => new Promise(() => {}) });
    const call = client.callTool({ name: 'ask', arguments: { question: 'never answered' } });
    await until(() => asked.length === 1);
    expect(server.endpoint.awaitingClient()).toBe(1);
    await client.close(); // drops the tools/call POST's stream: the instance is torn down
    await expect(call).rejects.toThrow();
    await until(() => server.endpoint.awaitingClient() === 0);
  });

  it('the answer to an admitted call is not refused at the admission limit', async () => {
    // One slot, held by the tools/call: refusing its answer (503) would deadlock the call.
    const saved = server;
    server = await start(fx, { catalog, lean: false, admission: new AdmissionGate(1) });
    try {
      const { client, asked } = await connect();
      const result = await client.callTool({ name: 'ask', arguments: { question: 'one slot' } });
      expect(asked).toEqual(['one slot']);
      expect(JSON.parse(textOf(result)).content).toEqual({ reply: 'answer to one slot' });
      await client.close();
    } finally {
      await server.endpoint.close(100);
      server = saved;
    }
  });

  it('a client that declared nothing answers with an error: the call ends with isError', async () => {
    const { client } = await connect({ capabilities: false });
    const result = await client.callTool({ name: 'ask', arguments: { question: 'anyone?' } });
    expect(result.isError).toBe(true);
    expect(server.endpoint.awaitingClient()).toBe(0);
  });
});

describe('legacy leg vs the SDK stateless fallback', () => {
  const factory: McpServerFactory = createServerFactory(catalog, {
    identity: IDENTITY,
    scopeFor: () => fx.scopeForRequest({ sessionKey: undefined, workspace: undefined }),
    onInternalError: () => {},
  });
  const sdk = createMcpHandler(factory, { legacy: 'stateless', keepAliveMs: 0 });
  const moor = withLegacyLeg(
    createMcpHandler(factory, { legacy: 'reject', keepAliveMs: 0 }),
    createLegacyLeg(factory, {
      keepAliveMs: 0,
      maxRequestBodySize: 4 * 1024 * 1024,
      routes: new ResponseRoutes(),
    }),
    4 * 1024 * 1024,
  );
  const legacyHeaders = {
    'content-type': 'application/json',
    accept: ACCEPT_BOTH,
    'mcp-protocol-version': '2025-11-25',
  };
  const cases: Array<[string, { method?: string; headers?: Record<string, string>; body?: string }]> = [
    ['GET', { method: 'GET', headers: { accept: 'text/event-stream' } }],
    ['DELETE', { method: 'DELETE' }],
    [
      'initialize',
      {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          },
        }),
      },
    ],
    [
      'initialized notification',
      { body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
    ],
    ['tools/list', { body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }) }],
    [
      'unknown tool',
      {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'nope', arguments: {} },
        }),
      },
    ],
    ['unknown method', { body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'what/ever' }) }],
    [
      'batch',
      {
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 4, method: 'ping' },
          { jsonrpc: '2.0', id: 5, method: 'tools/list' },
        ]),
      },
    ],
    ['posted response', { body: JSON.stringify({ jsonrpc: '2.0', id: 9, result: {} }) }],
    [
      'posted error response',
      { body: JSON.stringify({ jsonrpc: '2.0', id: 9, error: { code: -1, message: 'x' } }) },
    ],
    ['not JSON', { body: '{nope' }],
    ['empty body', { body: '' }],
    ['not JSON-RPC', { body: JSON.stringify({ hello: 1 }) }],
    [
      'Accept without SSE',
      {
        headers: { ...legacyHeaders, accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }),
      },
    ],
    [
      'bad protocol version header',
      {
        headers: { ...legacyHeaders, 'mcp-protocol-version': '1999-01-01' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
      },
    ],
    ['wrong content type', { headers: { ...legacyHeaders, 'content-type': 'text/plain' }, body: '{}' }],
  ];

  it.each(cases)('%s: same status, headers and bytes', async (_name, init) => {
    const request = () =>
      new Request('http://127.0.0.1/mcp', {
        method: init.method ?? 'POST',
        headers: init.headers ?? legacyHeaders,
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
    const [a, b] = await Promise.all([sdk.fetch(request()), moor.fetch(request())]);
    expect(b.status).toBe(a.status);
    expect([...b.headers]).toEqual([...a.headers]);
    expect(await b.text()).toBe(await a.text());
  });
});
