/**
 * The state dir on disk: created 0700 and refused when it cannot be trusted,
 * the incarnation file, and the pieces the CLI reads without loading the
 * daemon. State files are never opened through a symlink.
 */
import fs from 'node:fs';
import { MoorError } from '../errors.js';
import type { Incarnation } from '../protocol/hello.js';
import { openStateFile, readStateFile, stateDirProblem } from '../protocol/state-dir.js';

/** `openStateFile`, throwing STATE_DIR_UNUSABLE (`data.errno`) with its message. */
export function openStateFileOrThrow(file: string, flags: number, action: string): number {
  const opening = openStateFile(file, flags, action);
  if (!opening.ok) throw new MoorError('STATE_DIR_UNUSABLE', opening.message, { errno: opening.errno });
  return opening.fd;
}

/**
 * Creates the state dir 0700, or throws STATE_DIR_UNUSABLE saying what is
 * wrong with it (not creatable, read-only, someone else's, group/other
 * writable). An existing dir of ours that others may only read is tightened.
 */
export function ensureStateDir(dir: string): void {
  const problem = stateDirProblem(dir);
  if (problem !== undefined) throw new MoorError('STATE_DIR_UNUSABLE', problem);
  if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** Written beside the target and renamed over it: readers never see half a file, and a planted symlink is replaced, not followed. */
export function writeIncarnation(file: string, incarnation: Incarnation): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.unlinkSync(tmp);
  } catch {
    // none left by an earlier process with this pid
  }
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;
  const fd = openStateFileOrThrow(tmp, flags, 'write the incarnation file');
  try {
    fs.writeSync(fd, `${JSON.stringify(incarnation)}\n`);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

export function readIncarnation(file: string): Incarnation | undefined {
  try {
    const value = JSON.parse(readStateFile(file) ?? 'null') as Incarnation | null;
    return typeof value?.pid === 'number' ? value : undefined;
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
