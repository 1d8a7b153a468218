/**
 * Why a daemon refused to start, left in the state dir for whoever started it.
 *
 * A proxy starts the daemon detached and never sees its exit code; it only
 * sees the process gone. A refusal that starting again cannot cure (a corrupt
 * store, an unusable state dir) is written here before the daemon exits, so
 * the proxy can stop retrying and answer with the daemon's own message. The
 * record names the refusing pid: a proxy only believes the record of the
 * daemon it spawned, never one an earlier start left behind.
 */
import fs from 'node:fs';
import { openStateFile, readStateFile } from './state-dir.js';

export interface StartRefusal {
  readonly pid: number;
  /** A registry code (src/errors.ts), e.g. STORE_CORRUPT. */
  readonly code: string;
  /** One line for the user: what is wrong and what to do. */
  readonly message: string;
  readonly at: string;
}

/** Best effort: a state dir that cannot take the record is itself what the proxy checks first. */
export function writeStartRefusal(file: string, refusal: Omit<StartRefusal, 'at'>): void {
  const tmp = `${file}.${refusal.pid}.tmp`;
  try {
    fs.rmSync(tmp, { force: true });
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;
    const opening = openStateFile(tmp, flags, 'write the start refusal');
    if (!opening.ok) return;
    const fd = opening.fd;
    try {
      fs.writeSync(fd, `${JSON.stringify({ ...refusal, at: new Date().toISOString() })}\n`);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch {
    // nowhere to leave it: the daemon's stderr line (in daemon.log) still says it
  }
}

/** The refusal recorded by process `pid`, if that is who wrote the last one. */
export function readStartRefusal(file: string, pid: number): StartRefusal | undefined {
  try {
    const value = JSON.parse(readStateFile(file) ?? 'null') as Partial<StartRefusal> | null;
    if (value?.pid !== pid || typeof value.code !== 'string' || typeof value.message !== 'string')
      return undefined;
    return value as StartRefusal;
  } catch {
    return undefined;
  }
}

/** A daemon that started cleans up the refusal of an earlier one. */
export function clearStartRefusal(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // none
  }
}
