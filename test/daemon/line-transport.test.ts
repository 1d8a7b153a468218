/**
 * LineTransport answers every hostile line it cannot pass on (too large, too
 * deep, an unusable id) with -32600, and stays usable for the next line.
 */
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { LineTransport, MAX_LINE_BYTES } from '../../src/daemon/line-transport.js';

interface Answer {
  id: unknown;
  error?: { code: number; message: string };
}

async function transport() {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers: Answer[] = [];
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    let newline = text.indexOf('\n');
    while (newline >= 0) {
      answers.push(JSON.parse(text.slice(0, newline)) as Answer);
      text = text.slice(newline + 1);
      newline = text.indexOf('\n');
    }
  });
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const t = new LineTransport(input, output);
  t.onmessage = (m) => received.push(m);
  t.onerror = (e) => errors.push(e);
  let closed = false;
  t.onclose = () => {
    closed = true;
  };
  await t.start();
  return { input, answers, received, errors, isClosed: () => closed };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setImmediate(r));
};

const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;

describe('LineTransport', () => {
  it('answers a line over the limit with -32600 and its id, then reads the next line', async () => {
    const { input, answers, received, isClosed } = await transport();
    const head = '{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"q":"';
    input.write(head);
    const piece = 'x'.repeat(1024 * 1024);
    for (let sent = 0; sent <= MAX_LINE_BYTES; sent += piece.length) input.write(piece);
    input.write(`"}}\n${ping(43)}`);
    await until(() => received.length === 1);
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 42,
        error: { code: -32600, message: expect.stringContaining(`exceeded ${MAX_LINE_BYTES} bytes`) },
      },
    ]);
    expect(received[0]).toMatchObject({ id: 43, method: 'ping' });
    expect(isClosed()).toBe(false);
  });

  it('answers an oversized line that arrives whole in one chunk, and one without an id with id null', async () => {
    const { input, answers, received } = await transport();
    input.write(`{"jsonrpc":"2.0","id":"big","method":"x","params":{"q":"${'y'.repeat(MAX_LINE_BYTES)}"}}\n`);
    input.write(`[${'1,'.repeat(MAX_LINE_BYTES / 2)}1]\n${ping(2)}`);
    await until(() => received.length === 1);
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      ['big', -32600],
      [null, -32600],
    ]);
  });

  it('answers an array or object id with -32600 and id null, however deep', async () => {
    const { input, answers, received } = await transport();
    const deep = `${'['.repeat(5000)}0${']'.repeat(5000)}`;
    input.write(`{"jsonrpc":"2.0","id":${deep},"method":"ping"}\n`);
    input.write('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n');
    input.write('{"jsonrpc":"2.0","id":[1],"method":"ping"}\n');
    input.write(ping(9));
    await until(() => received.length === 1);
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
    expect(received[0]).toMatchObject({ id: 9 });
  });

  it('answers a frame nested deeper than the limit with -32600 and its id, before anything walks it', async () => {
    const { input, answers, received } = await transport();
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    input.write(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":${deep}}}\n`);
    input.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deep}}}\n`);
    input.write(ping(6));
    await until(() => received.length === 1);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 5, error: { code: -32600, message: expect.stringMatching(/deeper than 512/) } },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/deeper than 512/) },
      },
    ]);
    expect(received[0]).toMatchObject({ id: 6 });
  });
});
