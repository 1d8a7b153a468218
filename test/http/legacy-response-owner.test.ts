/**
 * On the stateless 2025-era leg, the answer to a server→client request
 * (elicitation, sampling, roots) is accepted only from the session the
 * request went to, and its id carries 128 random bits, so it can be neither
 * guessed nor answered by another session that learnt it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { inputRequired } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVER_PREAMBLE } from '../../src/app/identity.js';
import { Catalog } from '../../src/host/catalog.js';
import { definePack, defineTool, erasePack, toolResult } from '../../src/host/pack.js';
import { until } from '../helpers/until.js';
import { ACCEPT_BOTH, fixture, type Started, start } from './helpers.js';

const askPack = definePack<Record<string, never>>({
  name: 'ask',
  instructions: 'Test pack: a tool that asks the client.',
  open: () => ({}),
  resources: [],
  tools: [
    defineTool({
      name: 'ask',
      title: 'Ask',
      description: 'Asks the user a question and returns the answer.',
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
  ],
});

const fx = fixture();
const catalog = new Catalog([erasePack(askPack)], SERVER_PREAMBLE);
let server: Started;
const open: Client[] = [];

beforeAll(async () => {
  server = await start(fx, { catalog, lean: false });
});
afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => {});
});
afterAll(async () => {
  await server.endpoint.close(500);
  fx.close();
});

/** A legacy SDK client of one Moor-Session whose answers wait for `gate`; records the ids it was asked under. */
async function victim(session: string | undefined, gate: Promise<void>) {
  const ids: string[] = [];
  const client = new Client({ name: 'victim', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => {
    await gate;
    return { action: 'accept', content: { reply: 'the real answer' } } as never;
  });
  // Reads the outbound request ids off the SSE stream, as the client itself sees them.
  const sniffing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.headers.get('content-type')?.startsWith('text/event-stream') && response.body !== null) {
      const [mine, theirs] = response.body.tee();
      const reader = theirs.getReader();
      void (async () => {
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) return;
          for (const m of decoder.decode(value).matchAll(/"id":"(moor-[^"]*)"/g)) ids.push(m[1] as string);
        }
      })();
      return new Response(mine, { status: response.status, headers: response.headers });
    }
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    fetch: sniffing,
    ...(session !== undefined && { requestInit: { headers: { 'moor-session': session } } }),
  });
  await client.connect(transport);
  open.push(client);
  return { client, ids };
}

function forge(id: string, session: string | undefined) {
  return fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      'mcp-protocol-version': '2025-11-25',
      ...(session !== undefined && { 'moor-session': session }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: { reply: 'forged' } } }),
  });
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

describe('legacy HTTP: who may answer a server→client request', () => {
  it('another session, or none, cannot answer a session’s elicitation even knowing its id', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { client, ids } = await victim('moor-owner-session-1', gate);
    const call = client.callTool({ name: 'ask', arguments: { question: 'yours?' } });
    await until(() => ids.length === 1);
    const id = ids[0] as string;
    for (const session of ['moor-other-session-2', undefined]) {
      const answer = await forge(id, session);
      expect(answer.status).toBe(202);
    }
    expect(server.endpoint.awaitingClient()).toBe(1);
    release();
    expect(JSON.parse(textOf(await call)).content).toEqual({ reply: 'the real answer' });
    expect(server.endpoint.awaitingClient()).toBe(0);
  });

  it('ids carry 128 random bits and share no guessable part', async () => {
    const { client, ids } = await victim(undefined, Promise.resolve());
    await client.callTool({ name: 'ask', arguments: { question: 'one' } });
    await client.callTool({ name: 'ask', arguments: { question: 'two' } });
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^moor-[A-Za-z0-9_-]{22}$/);
    const [a, b] = ids.map((id) => id.slice('moor-'.length)) as [string, string];
    expect(a.slice(0, 8)).not.toBe(b.slice(0, 8));
  });
});
