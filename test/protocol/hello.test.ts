import { describe, expect, it } from 'vitest';
import { HELLO_VERSION, parseHello } from '../../src/protocol/hello.js';

describe('parseHello: control handoff', () => {
  it('takes the version that will take over', () => {
    expect(parseHello(JSON.stringify({ moor: HELLO_VERSION, control: 'handoff', version: '0.2.0' }))).toEqual(
      {
        moor: HELLO_VERSION,
        control: 'handoff',
        version: '0.2.0',
      },
    );
  });

  it('refuses a handoff without a version', () => {
    for (const version of [undefined, '', 7, 'x'.repeat(65)]) {
      expect(parseHello(JSON.stringify({ moor: HELLO_VERSION, control: 'handoff', version }))).toEqual({
        error: 'handoff needs the version that takes over',
      });
    }
  });

  it('names handoff among the controls it knows', () => {
    expect(parseHello(JSON.stringify({ moor: HELLO_VERSION, control: 'reboot' }))).toEqual({
      error: 'control must be "status", "stop", "tasks", "sessions", "handoff", "metrics" or "one-shot"',
    });
  });
});

describe('parseHello: control sessions', () => {
  const hello = (sessions: unknown) => JSON.stringify({ moor: HELLO_VERSION, control: 'sessions', sessions });

  it('takes list without a prefix, and show and drop with one', () => {
    expect(parseHello(hello({ action: 'list' }))).toEqual({
      moor: HELLO_VERSION,
      control: 'sessions',
      sessions: { action: 'list' },
    });
    for (const action of ['show', 'drop']) {
      expect(parseHello(hello({ action, prefix: 'moor-ab12' }))).toEqual({
        moor: HELLO_VERSION,
        control: 'sessions',
        sessions: { action, prefix: 'moor-ab12' },
      });
    }
  });

  it('refuses an unknown or missing action', () => {
    for (const sessions of [undefined, null, [], { action: 'purge' }, { prefix: 'moor-' }]) {
      expect(parseHello(hello(sessions))).toEqual({
        error: 'sessions.action must be "list", "show" or "drop"',
      });
    }
  });

  it('requires a prefix for show and drop', () => {
    expect(parseHello(hello({ action: 'show' }))).toEqual({ error: 'sessions.prefix is required for show' });
    expect(parseHello(hello({ action: 'drop' }))).toEqual({ error: 'sessions.prefix is required for drop' });
  });

  it('refuses a prefix that is not a piece of a session key', () => {
    for (const prefix of ['', 7, 'moor-…', 'a b', 'x'.repeat(129)]) {
      expect(parseHello(hello({ action: 'drop', prefix }))).toEqual({
        error: 'sessions.prefix must be 1-128 characters of [A-Za-z0-9._~-]',
      });
    }
  });
});
