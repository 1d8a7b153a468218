import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY_PATTERN } from '../../src/protocol/hello.js';
import { stdioProxyArgs } from '../../src/proxy/args.js';
import { LineSplitter } from '../../src/proxy/lines.js';
import { mintSessionKey, resolveProxyWorkspace } from '../../src/proxy/main.js';

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

describe('session keys', () => {
  it('are moor- plus 128 random bits, valid for the hello, and differ per process', () => {
    const a = mintSessionKey();
    expect(a).toMatch(/^moor-[0-9a-f]{32}$/);
    expect(SESSION_KEY_PATTERN.test(a)).toBe(true);
    expect(mintSessionKey()).not.toBe(a);
  });
});

describe('resolveProxyWorkspace', () => {
  it('uses an explicit directory, else MOOR_WORKSPACE, else the enclosing git root', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-ws-')));
    try {
      fs.mkdirSync(path.join(root, '.git'));
      fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
      expect(resolveProxyWorkspace('a', {}, root)).toBe(path.join(root, 'a'));
      expect(resolveProxyWorkspace(undefined, { MOOR_WORKSPACE: path.join(root, 'a') }, '/')).toBe(
        path.join(root, 'a'),
      );
      expect(resolveProxyWorkspace(undefined, {}, path.join(root, 'a', 'b'))).toBe(root);
      expect(() => resolveProxyWorkspace('missing', {}, root)).toThrow(/does not exist/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('LineSplitter', () => {
  it('yields exact line bytes across chunks, dropping CR before LF and empty lines', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter();
    for (const chunk of ['{"a":1}\n{"b"', ':2}\r\n\n{"c":', '3}\n'])
      splitter.push(Buffer.from(chunk), (l) => lines.push(l.toString()));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(splitter.pendingBytes).toBe(0);
  });
});
