import { describe, expect, it } from 'vitest';
import { activate } from '../../src/sessions/bindings.js';
import { describeDrop, noActiveWorkspace } from '../../src/sessions/session-errors.js';
import { emptySessionRecord } from '../../src/store/session-store.js';

describe('session errors', () => {
  it('each drop reason says what happened and what to do next', () => {
    const drop = (reason: 'switched' | 'disconnected' | 'evicted' | 'unavailable') =>
      describeDrop({ reason, root: '/x', decisions: null, at: 0 }, 8);
    expect(drop('switched')).toBe(
      'you switched from /x; it is parked. Call connect_workspace with path "/x" to make it active again, or name it in the tool\'s workspace argument.',
    );
    expect(drop('disconnected')).toBe(
      '/x was disconnected. Call connect_workspace with the path of the workspace to work in.',
    );
    expect(drop('evicted')).toBe(
      '/x was evicted: more than 8 parked. Call connect_workspace with path "/x" to load it again.',
    );
    expect(drop('unavailable')).toBe(
      '/x is no longer available: its folder is gone. Call connect_workspace with the path of an existing workspace.',
    );
  });

  it('NO_ACTIVE_WORKSPACE carries the last drop and lists the parked', () => {
    const switched = activate(
      activate(emptySessionRecord('s', 0), { root: '/x' }, null, 1, 8).record,
      { root: '/y' },
      null,
      2,
      8,
    );
    const record = { ...switched.record, active: null };
    const error = noActiveWorkspace(record, 8);
    expect(error.code).toBe('NO_ACTIVE_WORKSPACE');
    expect(error.message).toMatch(
      /^No workspace is active: you switched from \/x; it is parked\..* Parked: \/x\.$/,
    );
    expect(error.data).toEqual({
      lastDrop: { reason: 'switched', root: '/x', decisions: null, at: 2, rejoinTarget: '/x' },
    });
  });
});
