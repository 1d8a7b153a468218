import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearHandoffMarker,
  HANDOFF_MARKER_TTL_MS,
  handoffFile,
  readHandoffMarker,
  writeHandoffMarker,
} from '../../src/protocol/handoff.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the handoff marker', () => {
  it('is read back while fresh, ignored once stale, and gone when cleared', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-handoff-'));
    dirs.push(dir);
    const marker = { pid: 42, from: '0.1.0', to: '0.2.0', at: 5_000 };
    expect(readHandoffMarker(dir, 5_000)).toBeUndefined();
    writeHandoffMarker(dir, marker);
    expect(fs.statSync(handoffFile(dir)).mode & 0o777).toBe(0o600);
    expect(readHandoffMarker(dir, 5_000 + HANDOFF_MARKER_TTL_MS - 1)).toEqual(marker);
    expect(readHandoffMarker(dir, 5_000 + HANDOFF_MARKER_TTL_MS)).toBeUndefined();
    clearHandoffMarker(dir);
    expect(fs.existsSync(handoffFile(dir))).toBe(false);
    clearHandoffMarker(dir);
  });
});
