/**
 * The bearer token, handed only to a client about to call the daemon's own
 * listener. Loopback ports are first come, first served between the users of
 * a machine: when the daemon is down (or restarting), another user may bind
 * its port, and a client configured with the literal token would send it
 * there. So the configs moor prints fetch the token through this check at
 * each start: it asks the daemon over its socket — whose owner and mode are
 * checked before a byte is sent, so the answer is the user's own daemon's —
 * where it listens, and gives the token only when that is the URL the client
 * is about to call. While the daemon listens there, nobody else can (another
 * user cannot share a bound address), so the token goes to the daemon.
 */
import path from 'node:path';
import { MoorError } from '../../errors.js';
import type { StatePaths } from '../../protocol/state-dir.js';
import { HTTP_TOKEN_FILE, readTokenFile } from '../daemon/http-token.js';
import { askDaemon } from './daemon-control.js';

/** The token for a client about to call `url`; throws TOKEN_WITHHELD saying why not. */
export async function tokenForUrl(paths: StatePaths, url: string): Promise<string> {
  let wanted: URL;
  try {
    wanted = new URL(url);
  } catch {
    throw new MoorError('TOKEN_WITHHELD', `${JSON.stringify(url)} is not a URL: give the daemon's HTTP URL.`);
  }
  const reply = await askDaemon(paths, 'status');
  if (reply === undefined) {
    throw new MoorError(
      'TOKEN_WITHHELD',
      `no moor daemon of yours is running (state dir ${paths.dir}), so whoever listens at ${wanted.host} may be anyone: the token is not handed out. Start the daemon (moor daemon start --http ${wanted.host}) and try again.`,
    );
  }
  const listening = reply.status?.httpUrl ?? null;
  if (listening === null || !sameListener(new URL(listening), wanted)) {
    throw new MoorError(
      'TOKEN_WITHHELD',
      `your moor daemon ${listening === null ? 'serves no HTTP' : `listens at ${listening}`}, not at ${wanted.href}: the token is not handed out to another listener.`,
    );
  }
  return readTokenFile(path.join(paths.dir, HTTP_TOKEN_FILE));
}

function sameListener(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port;
}
