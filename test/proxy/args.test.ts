import { describe, expect, it } from 'vitest';
import { SESSION_KEY_PATTERN } from '../../src/protocol/hello.js';
import { parsePollMs, stdioProxyArgs } from '../../src/proxy/args.js';
import { mintSessionKey } from '../../src/proxy/main.js';

describe('stdioProxyArgs', () => {
  it('takes `moor stdio` with workspace and decisions options', () => {
    expect(stdioProxyArgs(['stdio'])).toEqual({ workspace: undefined, decisions: undefined });
    expect(stdioProxyArgs(['stdio', '-w', '/r', '--decisions=/r/adr'])).toEqual({
      workspace: '/r',
      decisions: '/r/adr',
    });
    expect(stdioProxyArgs(['stdio', '--workspace', '/r', '-d', 'adr'])).toEqual({
      workspace: '/r',
      decisions: 'adr',
    });
  });

  it('leaves everything else to the full command line', () => {
    for (const argv of [
      ['stdio', '--direct'],
      ['stdio', '--help'],
      ['stdio', '-w'],
      ['stdio', '--bogus'],
      ['decisions'],
      [],
    ]) {
      expect(stdioProxyArgs(argv), argv.join(' ')).toBeUndefined();
    }
  });
});

describe('--poll-ms', () => {
  it('takes a whole number of milliseconds, 0 included', () => {
    expect(stdioProxyArgs(['stdio', '--poll-ms', '5000'])).toEqual({ pollMs: 5000 });
    expect(stdioProxyArgs(['stdio', '--poll-ms=0', '-w', '/r'])).toEqual({ workspace: '/r', pollMs: 0 });
    expect(stdioProxyArgs(['stdio'])).not.toHaveProperty('pollMs');
  });

  it('leaves anything else to the full command line (which reports it)', () => {
    for (const argv of [
      ['stdio', '--poll-ms'],
      ['stdio', '--poll-ms', '-1'],
      ['stdio', '--poll-ms=1.5'],
    ])
      expect(stdioProxyArgs(argv), argv.join(' ')).toBeUndefined();
    expect(parsePollMs('30000')).toBe(30_000);
    expect(parsePollMs('soon')).toBeUndefined();
  });
});

describe('session keys', () => {
  it('are moor- plus 128 random bits, valid for the hello, and differ per process', () => {
    const a = mintSessionKey();
    expect(a).toMatch(/^moor-[0-9a-f]{32}$/);
    expect(SESSION_KEY_PATTERN.test(a)).toBe(true);
    expect(mintSessionKey()).not.toBe(a);
  });
});
