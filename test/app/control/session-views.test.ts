/**
 * Sessions as operators see them: key prefixes (never a whole key), the
 * prefix match with its two errors, and the control answer for list, show
 * and drop.
 */
import { describe, expect, it } from 'vitest';
import { matchPrefix, type SessionsAdmin, sessionsControl } from '../../../src/app/control/session-views.js';
import { keyPrefix, uniqueKeyPrefixes } from '../../../src/protocol/session-prefix.js';
import type { SessionSnapshot } from '../../../src/sessions/manager-types.js';

function snapshot(key: string, lastUsedAt = 0): SessionSnapshot {
  return { key, active: null, parked: [], lastDrop: null, attachments: 0, lastUsedAt, inMemory: true };
}

function admin(keys: string[]): SessionsAdmin & { dropped: string[] } {
  const dropped: string[] = [];
  return {
    dropped,
    allSnapshots: async () => keys.filter((k) => !dropped.includes(k)).map((k) => snapshot(k)),
    drop: async (key) => {
      dropped.push(key);
      return true;
    },
  };
}

describe('keyPrefix', () => {
  it('shows the first 12 characters, and keeps a short key mostly hidden', () => {
    expect(keyPrefix('moor-0123456789abcdef')).toBe('moor-0123456…');
    expect(keyPrefix('abcdefgh')).toBe('abcd…');
  });
});

describe('unique prefixes', () => {
  const alpha = 'journey-even-alpha-0123456789';
  const beta = 'journey-even-beta-0123456789';

  it('names two keys sharing their first 12 characters by the shortest prefix that tells them apart', () => {
    const prefixes = uniqueKeyPrefixes([alpha, beta, 'other-session-key-0001']);
    expect(prefixes.get(alpha)).toBe('journey-even-a…');
    expect(prefixes.get(beta)).toBe('journey-even-b…');
    expect(prefixes.get('other-session-key-0001')).toBe('other-sessio…');
  });

  it('lists and shows sessions by those prefixes, never a whole key', async () => {
    const listed = await sessionsControl(admin([alpha, beta]), { action: 'list' });
    if (!('sessions' in listed)) throw new Error('no sessions');
    expect(listed.sessions.map((s) => s.keyPrefix)).toEqual(['journey-even-a…', 'journey-even-b…']);
    expect(JSON.stringify(listed)).not.toContain(alpha);
    const shown = await sessionsControl(admin([alpha, beta]), { action: 'show', prefix: 'journey-even-b…' });
    if (!('sessions' in shown)) throw new Error('no session');
    expect(shown.sessions.map((s) => s.keyPrefix)).toEqual(['journey-even-b…']);
  });
});

describe('matchPrefix', () => {
  const all = ['moor-aaaa1111xyzwxyz', 'moor-aaaa1112xyzwxyz', 'moor-bbbb0000xyzwxyz'].map((k) =>
    snapshot(k),
  );

  it('finds the one session a prefix names, a trailing ellipsis ignored', () => {
    expect(matchPrefix(all, 'moor-b').key).toBe('moor-bbbb0000xyzwxyz');
    expect(matchPrefix(all, 'moor-aaaa1112…').key).toBe('moor-aaaa1112xyzwxyz');
  });

  it('an ambiguous prefix lists the matches by prefixes that tell them apart', () => {
    expect(() => matchPrefix(all, 'moor-aaaa')).toThrow(
      expect.objectContaining({
        code: 'SESSION_AMBIGUOUS',
        message: '"moor-aaaa" matches 2 sessions: moor-aaaa1111…, moor-aaaa1112…; give more of the key',
      }),
    );
    const close = ['moor-aaaa11111111x1-tail', 'moor-aaaa11111111x2-tail'].map((k) => snapshot(k));
    expect(() => matchPrefix(close, 'moor')).toThrow(
      expect.objectContaining({
        data: { prefix: 'moor', matches: ['moor-aaaa11111111x1…', 'moor-aaaa11111111x2…'] },
      }),
    );
  });

  it('an unknown prefix is SESSION_NOT_FOUND', () => {
    expect(() => matchPrefix(all, 'moor-c')).toThrow(
      expect.objectContaining({
        code: 'SESSION_NOT_FOUND',
        message: 'no session\'s key starts with "moor-c"; see moor sessions list',
      }),
    );
  });
});

describe('sessionsControl', () => {
  it('lists by prefix, shows one, drops one, and answers errors as registry codes', async () => {
    const sessions = admin(['moor-aaaa1111xyz', 'moor-bbbb0000xyz']);
    expect((await sessionsControl(sessions, { action: 'show', prefix: 'moor-' })).error).toEqual({
      code: 'SESSION_AMBIGUOUS',
      message: '"moor-" matches 2 sessions: moor-aaaa111…, moor-bbbb000…; give more of the key',
    });
    const list = await sessionsControl(sessions, { action: 'list' });
    expect(list.sessions?.map((s) => s.keyPrefix)).toEqual(['moor-aaaa111…', 'moor-bbbb000…']);
    expect(JSON.stringify(list)).not.toContain('moor-aaaa1111xyz');
    const shown = await sessionsControl(sessions, { action: 'show', prefix: 'moor-b' });
    expect(shown.sessions?.map((s) => s.keyPrefix)).toEqual(['moor-bbbb000…']);
    const dropped = await sessionsControl(sessions, { action: 'drop', prefix: 'moor-b' });
    expect(dropped.sessions?.map((s) => s.keyPrefix)).toEqual(['moor-bbbb000…']);
    expect(sessions.dropped).toEqual(['moor-bbbb0000xyz']);
    expect(await sessionsControl(sessions, { action: 'drop', prefix: 'moor-b' })).toEqual({
      error: {
        code: 'SESSION_NOT_FOUND',
        message: 'no session\'s key starts with "moor-b"; see moor sessions list',
      },
    });
  });
});
