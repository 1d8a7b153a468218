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
      error: 'control must be "status", "stop", "tasks", "handoff" or "metrics"',
    });
  });
});
