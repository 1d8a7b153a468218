/**
 * Params that break a method's schema are answered -32602 with one line
 * naming the field, in both eras and on both HTTP paths (lean and SDK) —
 * never -32603 with the SDK's raw zod dump.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  fixture,
  legacyBody,
  messages,
  modernBody,
  modernHeaders,
  post,
  type Started,
  start,
} from './helpers.js';

const fx = fixture();
const started: Started[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.endpoint.close(100);
});
afterAll(() => fx.close());

const LEGACY = { 'mcp-protocol-version': '2025-11-25' };

const cases: Array<[string, Record<string, unknown>, string, Array<'legacy' | 'modern'>]> = [
  [
    'resources/read',
    { uri: 5 },
    'Invalid params for resources/read: params.uri: expected string, received number',
    ['legacy', 'modern'],
  ],
  [
    'resources/read',
    {},
    'Invalid params for resources/read: params.uri: expected string, received undefined',
    ['legacy', 'modern'],
  ],
  [
    'tools/list',
    { cursor: [1] },
    'Invalid params for tools/list: params.cursor: expected string, received array',
    ['legacy', 'modern'],
  ],
  [
    'resources/list',
    { cursor: 5 },
    'Invalid params for resources/list: params.cursor: expected string, received number',
    ['legacy', 'modern'],
  ],
  [
    'completion/complete',
    { argument: { name: 'x', value: '' } },
    'Invalid params for completion/complete: params.ref: expected object, received undefined',
    ['legacy', 'modern'],
  ],
  [
    'tools/call',
    { name: 5 },
    'Invalid params for tools/call: params.name: expected string, received number',
    ['legacy', 'modern'],
  ],
  [
    'resources/subscribe',
    { uri: 5 },
    'Invalid params for resources/subscribe: params.uri: expected string, received number',
    ['legacy'],
  ],
  [
    'resources/unsubscribe',
    { uri: null },
    'Invalid params for resources/unsubscribe: params.uri: expected string, received null',
    ['legacy'],
  ],
  [
    'logging/setLevel',
    { level: 'loud' },
    'Invalid params for logging/setLevel: params.level: Invalid option: expected one of "debug"|"info"|"notice"|"warning"|"error"|"critical"|"alert"|"emergency"',
    ['legacy'],
  ],
];

describe('invalid params over HTTP', () => {
  for (const lean of [true, false]) {
    for (const [method, params, message, eras] of cases) {
      for (const era of eras) {
        it(`${era}, ${lean ? 'lean' : 'SDK'} path: ${method} ${JSON.stringify(params)} → -32602 naming the field`, async () => {
          const s = await start(fx, { lean });
          started.push(s);
          const answer =
            era === 'legacy'
              ? await post(s.url, legacyBody(7, method, params), LEGACY)
              : await post(s.url, modernBody(7, method, params), modernHeaders(method));
          const [reply] = messages(answer);
          expect(reply).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message } });
        });
      }
    }
  }
});
