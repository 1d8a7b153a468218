/**
 * A session's own events on listen streams: a tools_list_changed published
 * for one session reaches that session's streams that asked for tool-list
 * changes, and no other session's.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { openListen } from '../../../src/host/events/listen.js';
import { ListenBudget } from '../../../src/host/events/listen-budget.js';
import { EventRouter } from '../../../src/host/events/router.js';

function stream(router: EventRouter, ownerKey: string, toolsListChanged: boolean): JSONRPCMessage[] {
  const sent: JSONRPCMessage[] = [];
  openListen({
    request: {
      id: `listen-${ownerKey}-${toolsListChanged}`,
      filter: { toolsListChanged, resourcesListChanged: true },
      declaresTasks: false,
      traceId: undefined,
    },
    offer: { prompts: false, tasks: true },
    audience: { rooms: ['room-1'], ownerKey },
    router,
    budget: new ListenBudget({}),
    serverInfo: { name: 'moor', version: '0' },
    send: (message) => sent.push(message),
  }).start();
  return sent;
}

const methods = (sent: JSONRPCMessage[]) => sent.map((m) => (m as { method?: string }).method);

describe('per-session events on listen streams', () => {
  it('reach only the streams of that session that asked for tool-list changes', () => {
    const router = new EventRouter();
    const a = stream(router, 'session-a', true);
    const aQuiet = stream(router, 'session-a', false);
    const b = stream(router, 'session-b', true);
    router.publishSession('session-a', { kind: 'tools_list_changed' });
    // A room event after it: both sessions' streams hear the room, in order.
    router.publish('room-1', { kind: 'resources_list_changed' });
    expect(methods(a)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/resources/list_changed',
    ]);
    expect(methods(aQuiet)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/list_changed',
    ]);
    expect(methods(b)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/list_changed',
    ]);
  });
});
