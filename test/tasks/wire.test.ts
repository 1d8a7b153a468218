/**
 * Task ids are pasted as command-line arguments, so none may look like an
 * option. One base64url id in 64 starts with '-': 20,000 draws hit that case
 * (the chance of missing it is about 1e-137) and none of them may show it.
 */
import { describe, expect, it } from 'vitest';
import { newTaskId } from '../../src/tasks/wire.js';

describe('newTaskId', () => {
  it('never starts with a dash, and stays 24 base64url characters', () => {
    const ids = Array.from({ length: 20_000 }, newTaskId);
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
