/**
 * Bodies nested deeper than anything should walk: 400 with JSON-RPC -32600
 * (the id echoed when the body has a usable one), -32700 when they do not
 * parse; never a 500 from a stack overflow. Nesting under the limit is
 * served as usual.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/protocol/json-shape.js';
import { ENVELOPE, fixture, modernHeaders, post, type Started, start } from './helpers.js';

const fx = fixture();
const started: Started[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.endpoint.close(100);
});
afterAll(() => fx.close());

const DEPTH = 100_000;
const TOO_DEEP = {
  code: -32600,
  message: `Invalid Request: the message nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
};

describe('HTTP: deeply nested bodies', () => {
  it('answers 400 -32600, echoing a usable id, on both eras and for any shape', async () => {
    const s = await start(fx);
    started.push(s);
    const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    const envelope = JSON.stringify(ENVELOPE);
    const cases: Array<[string, Record<string, string>, unknown]> = [
      [deepArray, {}, null],
      [deepObject, modernHeaders('tools/list'), null],
      [`{"jsonrpc":"2.0","id":${deepArray},"method":"tools/list"}`, {}, null],
      [`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"x":${deepArray}}}}`, {}, 3],
      [
        `{"jsonrpc":"2.0","id":"m","method":"tools/call","params":{"name":"echo","arguments":{"text":${deepObject}},"_meta":${envelope}}}`,
        modernHeaders('tools/call', 'echo'),
        'm',
      ],
      [`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${deepArray}}}`, {}, null],
    ];
    for (const [body, headers, id] of cases) {
      const answer = await post(s.url, body, headers);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', error: TOO_DEEP, id });
    }
  });

  it('answers a deep body that does not parse 400 -32700, and serves nesting under the limit', async () => {
    const s = await start(fx);
    started.push(s);
    const unclosed = await post(s.url, '['.repeat(DEPTH));
    expect(unclosed.status).toBe(400);
    expect(JSON.parse(unclosed.text)).toMatchObject({ error: { code: -32700 }, id: null });
    const depth = MAX_JSON_DEPTH - 4;
    const meta = `{"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const ok = await post(s.url, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${meta}}}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('"tools"');
  });
});
