/**
 * Where one-shot `moor decisions …` runs keep what they may reuse (parsed
 * records, search postings, the app's compiled bytecode): the state dir's
 * cache/. None with MOOR_RECORD_CACHE=off, or when the state dir is one moor
 * must not trust (another owner, open to others).
 */
import fs from 'node:fs';
import path from 'node:path';
import { stateDir, stateDirProblem } from '../protocol/state-dir.js';

export function oneShotCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.MOOR_RECORD_CACHE?.trim().toLowerCase() === 'off') return undefined;
  const dir = stateDir(env);
  try {
    if (fs.existsSync(dir) && stateDirProblem(dir) !== undefined) return undefined;
  } catch {
    return undefined;
  }
  return path.join(dir, 'cache');
}
