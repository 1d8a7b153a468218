import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MoorError } from '../../src/errors.js';
import { openTaskStore } from '../../src/store/open-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function corruptStore(): { dir: string; file: string; garbage: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-store-'));
  dirs.push(dir);
  const file = path.join(dir, 'moor.db');
  const garbage = Buffer.from('not a database '.repeat(500));
  fs.writeFileSync(file, garbage);
  fs.writeFileSync(`${file}-wal`, 'wal bytes');
  fs.writeFileSync(`${file}-shm`, 'shm bytes');
  return { dir, file, garbage };
}

describe('openTaskStore', () => {
  it('refuses a corrupt store with STORE_CORRUPT (exit 4) and leaves every file as it was', () => {
    const { dir, file, garbage } = corruptStore();
    let thrown: unknown;
    try {
      openTaskStore({ file });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MoorError);
    expect(thrown).toMatchObject({ code: 'STORE_CORRUPT', data: { file } });
    expect((thrown as MoorError).spec.exit).toBe(4);
    expect((thrown as MoorError).message).toContain('--reset-store');
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['moor.db', 'moor.db-shm', 'moor.db-wal']);
  });

  it('with resetStore moves the store and its -wal/-shm aside and starts empty', async () => {
    const { dir, file, garbage } = corruptStore();
    const moved: string[] = [];
    const store = openTaskStore({
      file,
      resetStore: true,
      now: () => new Date('2026-05-01T10:15:30.123Z'),
      onReset: (to) => moved.push(to),
    });
    const aside = `${file}.corrupt-2026-05-01T101530.123Z`;
    expect(moved).toEqual([aside]);
    expect(fs.readFileSync(aside).equals(garbage)).toBe(true);
    expect(fs.readFileSync(`${aside}-wal`, 'utf8')).toBe('wal bytes');
    expect(fs.readFileSync(`${aside}-shm`, 'utf8')).toBe('shm bytes');
    expect(await store.list(undefined, Date.now())).toEqual([]);
    store.close();
    expect(fs.readdirSync(dir)).toContain('moor.db');
  });

  it('with resetStore leaves a healthy store alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-store-'));
    dirs.push(dir);
    const file = path.join(dir, 'moor.db');
    openTaskStore({ file }).close();
    const moved: string[] = [];
    openTaskStore({ file, resetStore: true, onReset: (to) => moved.push(to) }).close();
    expect(moved).toEqual([]);
    expect(fs.readdirSync(dir).filter((f) => f.includes('corrupt'))).toEqual([]);
  });
});
