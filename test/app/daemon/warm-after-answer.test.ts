/**
 * Loads no call asked for (the room warm-up, a listen's resource states) wait
 * for a connection's first answer: before it they are held, a notification
 * does not release them, and when they run the answer's bytes are already
 * written, so a corpus load never holds the first reply.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { FirstAnswerGate } from '../../../src/app/daemon/warm-after-answer.js';
import { LineTransport } from '../../../src/daemon/line-transport.js';

function connection() {
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  const transport = new LineTransport(new PassThrough(), output);
  return { transport, written: () => written };
}

describe('FirstAnswerGate', () => {
  it('holds tasks until the first answer is written, then runs them in order after the write', async () => {
    const { transport, written } = connection();
    const gate = new FirstAnswerGate();
    const watched = gate.watch(transport, 60_000);
    const ran: string[] = [];
    let seenAtRun = '';
    const done = new Promise<void>((resolve) => {
      gate.after(() => {
        ran.push('warm');
        seenAtRun = written();
      });
      gate.after(() => {
        ran.push('resources');
        resolve();
      });
    });

    await watched.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'x' },
    });
    expect(gate.isOpen).toBe(false);
    expect(ran).toEqual([]);

    await watched.send({ jsonrpc: '2.0', id: 7, result: { tools: [] } });
    expect(gate.isOpen).toBe(true);
    // Run on a later turn, never inside the send.
    expect(ran).toEqual([]);
    await done;
    expect(ran).toEqual(['warm', 'resources']);
    expect(seenAtRun).toContain('"id":7');
  });

  it('an error answer opens it too, and a task given once it is open runs at once', async () => {
    const { transport } = connection();
    const gate = new FirstAnswerGate();
    const watched = gate.watch(transport, 60_000);
    const opened = new Promise<void>((resolve) => gate.after(resolve));
    await watched.send({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'Method not found' } });
    await opened;
    const ran: number[] = [];
    gate.after(() => ran.push(1));
    expect(ran).toEqual([1]);
  });

  it('a send that fails still opens it: the held loads are not lost with the connection', async () => {
    const { transport } = connection();
    await transport.close();
    const gate = new FirstAnswerGate();
    const watched = gate.watch(transport, 60_000);
    const opened = new Promise<void>((resolve) => gate.after(resolve));
    await expect(watched.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
    await opened;
    expect(gate.isOpen).toBe(true);
  });

  it('a connection that never asks anything gets its loads once the idle time has passed', async () => {
    const { transport } = connection();
    const gate = new FirstAnswerGate();
    gate.watch(transport, 0);
    await new Promise<void>((resolve) => gate.after(resolve));
    expect(gate.isOpen).toBe(true);
  });

  it('a gate no connection ever answers through opens once idle (the daemon-wide gate prom-client waits on)', async () => {
    vi.useFakeTimers();
    try {
      const gate = new FirstAnswerGate();
      const ran: string[] = [];
      gate.after(() => ran.push('metrics'));
      gate.openWhenIdle(250);
      vi.advanceTimersByTime(249);
      expect(gate.isOpen).toBe(false);
      vi.advanceTimersByTime(1);
      expect(gate.isOpen).toBe(true);
      // The held tasks run on the next turn, never inside the timer.
      expect(ran).toEqual([]);
      vi.runAllTimers();
      expect(ran).toEqual(['metrics']);
    } finally {
      vi.useRealTimers();
    }
  });
});
