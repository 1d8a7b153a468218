/**
 * The state dir on disk: created 0700, the incarnation file, and the pieces
 * the CLI reads without loading the daemon.
 */
import fs from 'node:fs';
import type { Incarnation } from '../protocol/hello.js';

/** Creates the state dir 0700 (and tightens an existing one we own). */
export function ensureStateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dir);
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) fs.chmodSync(dir, 0o700);
}

export function writeIncarnation(file: string, incarnation: Incarnation): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(incarnation)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export function readIncarnation(file: string): Incarnation | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Incarnation;
    return typeof value.pid === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the incarnation file only while it still names `pid`. */
export function removeIncarnation(file: string, pid: number = process.pid): void {
  if (readIncarnation(file)?.pid !== pid) return;
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
}
