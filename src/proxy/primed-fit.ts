/**
 * When a proxy that has just started the daemon may give the build's primed
 * answers for it: only when that daemon is certain to accept the session and
 * answer the same. It is started with the default flags, so it must also have
 * no environment that changes the catalog (MOOR_PACKS, MOOR_TEST_PACK) or
 * puts the store elsewhere (MOOR_STORE); the store file must be absent or
 * start like an SQLite database (a corrupt one is refused at start, and that
 * refusal answers the first request, as without priming); and the hello's
 * workspace (and a named decision folder) must pass the daemon's workspace
 * rule for certain: a real directory this user owns, and for root none of
 * the system folders a root daemon refuses. Anything else: the proxy waits
 * for the daemon, as it always did.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionHello } from '../protocol/hello.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { isSystemFolder } from '../protocol/system-folders.js';

/** Environment variables under which a spawned daemon may answer otherwise. */
const CATALOG_ENV = ['MOOR_PACKS', 'MOOR_TEST_PACK', 'MOOR_STORE'];
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** A real directory the daemon's user owns and, for root, no system folder. */
function servable(dir: string, uid: number): boolean {
  try {
    const real = fs.realpathSync(path.resolve(dir));
    const stat = fs.statSync(real);
    if (!stat.isDirectory() || stat.uid !== uid) return false;
    return uid !== 0 || !isSystemFolder(real);
  } catch {
    return false;
  }
}

/** The store file is absent, empty, or starts with SQLite's header (what the daemon checks before opening it). */
function storeLooksUsable(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read === 0 || head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether a daemon this proxy has just started (default flags, this
 * environment) will certainly accept this session and answer as primed.
 */
export function primingFits(
  paths: StatePaths,
  hello: SessionHello,
  env: NodeJS.ProcessEnv = process.env,
  uid: number | undefined = process.getuid?.(),
): boolean {
  if (CATALOG_ENV.some((name) => (env[name] ?? '') !== '')) return false;
  if (uid === undefined || hello.workspace === undefined || !servable(hello.workspace, uid)) return false;
  if (hello.decisions !== undefined && !servable(hello.decisions, uid)) return false;
  return storeLooksUsable(paths.database);
}
