import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { GatedTransport } from '../../src/daemon/gated-transport.js';
import { AdmissionGate } from '../../src/host/admission.js';

class FakeWire implements Transport {
  onclose?: () => void;
  onerror?: (e: Error) => void;
  onmessage?: (m: JSONRPCMessage) => void;
  readonly sent: JSONRPCMessage[] = [];
  async start() {}
  async send(m: JSONRPCMessage) {
    this.sent.push(m);
  }
  async close() {
    this.onclose?.();
  }
}

function setup(limit = 2) {
  const wire = new FakeWire();
  const gate = new AdmissionGate(limit);
  const gated = new GatedTransport(wire, gate, pino({ level: 'silent' }));
  const delivered: JSONRPCMessage[] = [];
  gated.onmessage = (m) => delivered.push(m);
  void gated.start();
  const request = (id: number, method = 'tools/call') =>
    wire.onmessage?.({ jsonrpc: '2.0', id, method, params: {} });
  return { wire, gate, gated, delivered, request };
}

describe('GatedTransport', () => {
  it('admits up to the limit, refuses beyond it with -32050 without delivering, frees the slot on the response', async () => {
    const { wire, gate, gated, delivered, request } = setup(2);
    request(1);
    request(2);
    request(3);
    expect(delivered.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(wire.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32050,
          message: 'moor daemon is busy: 2 requests in flight; retry shortly',
          data: { executed: false },
        },
      },
    ]);
    await gated.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(gate.inFlight).toBe(1);
    request(4);
    expect(delivered).toHaveLength(3);
  });

  it('does not gate listen streams, and a cancellation frees its slot', () => {
    const { gate, delivered, request, wire } = setup(1);
    request(1, 'subscriptions/listen');
    request(2);
    expect(gate.inFlight).toBe(1);
    wire.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    expect(gate.inFlight).toBe(0);
    expect(delivered).toHaveLength(3);
  });

  it('refuses with -32051 once the gate closes, and interruptAll answers the running ones and drops their late results', async () => {
    const { wire, gate, gated, request } = setup(4);
    request(1);
    void gate.close(1000);
    request(2);
    expect(wire.sent.at(-1)).toMatchObject({
      id: 2,
      error: { code: -32051, message: 'moor daemon is shutting down' },
    });
    await gated.interruptAll('daemon shutting down');
    expect(wire.sent.at(-1)).toMatchObject({
      id: 1,
      error: { code: -32051, message: 'daemon shutting down', data: { executed: 'unknown' } },
    });
    expect(gate.inFlight).toBe(0);
    const count = wire.sent.length;
    await gated.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(wire.sent).toHaveLength(count);
  });

  it('releases every slot when the connection closes', async () => {
    const { gate, gated, request } = setup(4);
    request(1);
    request(2);
    await gated.close();
    expect(gate.inFlight).toBe(0);
  });
});
