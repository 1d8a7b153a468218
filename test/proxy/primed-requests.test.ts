/**
 * The primed answers stand for the daemon only on requests the SDK would
 * certainly accept as they are: whatever the proxy's rule keys, the SDK's own
 * schemas take unchanged (generated shapes, valid and not).
 */
import { ClientCapabilitiesSchema, InitializeRequestParamsSchema } from '@modelcontextprotocol/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  initializeRequestKey,
  isPlainCapabilities,
  legacyListRequestKey,
  modernRequestKey,
} from '../../src/proxy/primed-requests.js';

const json = fc.jsonValue({ maxDepth: 3 });
const flat = fc.dictionary(
  fc.string({ maxLength: 5 }),
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
);
const capabilities = fc.oneof(
  fc.record(
    {
      experimental: fc.oneof(fc.dictionary(fc.string(), flat), json),
      sampling: fc.oneof(fc.record({ context: flat, tools: flat }, { requiredKeys: [] }), json),
      elicitation: fc.oneof(
        fc.record(
          { form: fc.oneof(flat, fc.record({ applyDefaults: json })), url: flat },
          { requiredKeys: [] },
        ),
        json,
      ),
      roots: fc.oneof(fc.record({ listChanged: fc.oneof(fc.boolean(), json) }, { requiredKeys: [] }), json),
      extensions: fc.oneof(fc.dictionary(fc.string(), flat), json),
      tasks: json,
      other: json,
    },
    { requiredKeys: [] },
  ),
  json,
);
const clientInfo = fc.oneof(
  fc.record(
    { name: fc.oneof(fc.string(), json), version: fc.oneof(fc.string(), json), title: json },
    { requiredKeys: [] },
  ),
  json,
);

describe('primed request keys', () => {
  it('client capabilities the rule takes are ones the SDK takes unchanged', () => {
    fc.assert(
      fc.property(capabilities, (caps) => {
        if (!isPlainCapabilities(caps)) return;
        const parsed = ClientCapabilitiesSchema.safeParse(caps);
        expect(parsed.success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a keyed initialize is one the SDK takes; anything odd waits for the daemon', () => {
    fc.assert(
      fc.property(fc.string(), capabilities, clientInfo, json, (version, caps, info, extra) => {
        const message = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: caps, clientInfo: info },
        };
        if (initializeRequestKey(message) !== undefined)
          expect(InitializeRequestParamsSchema.safeParse(message.params).success).toBe(true);
        const withExtra = { ...message, params: { ...message.params, _meta: extra } };
        expect(initializeRequestKey(withExtra)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('keys only plain ids, the modern envelope exactly, and lists without a cursor', () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = (id: unknown, params: Record<string, unknown>, method = 'tools/list') =>
      modernRequestKey({ jsonrpc: '2.0', id, method, params } as never);
    expect(modern(1, { _meta: meta })).toBe('modern tools/list');
    expect(modern('a"b', { _meta: meta }, 'server/discover')).toBe('modern server/discover');
    expect(modern(1.5, { _meta: meta })).toBeUndefined();
    expect(modern(2 ** 53, { _meta: meta })).toBeUndefined();
    expect(modern(1, { _meta: meta, cursor: 'x' })).toBeUndefined();
    expect(modern(1, { _meta: { ...meta, traceparent: 'x' } })).toBeUndefined();
    expect(
      modern(1, { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }),
    ).toBeUndefined();
    expect(modern(1, { _meta: meta }, 'prompts/list')).toBeUndefined();
    expect(legacyListRequestKey({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, '2025-06-18')).toBe(
      'legacy tools/list 2025-06-18',
    );
    expect(
      legacyListRequestKey({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } }, 'v'),
    ).toBeUndefined();
  });
});
