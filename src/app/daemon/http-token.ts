/**
 * The bearer token the daemon's HTTP endpoint requires. Loopback is no
 * boundary between the users of one machine, so HTTP needs a token unless
 * `--no-token` says otherwise (loopback only). The token is `--token-file`'s,
 * or the state dir's `http.token`, created on first use: 256 random bits in
 * base64url, written 0600 under a temporary name and linked into place, so
 * two daemons starting at once agree on one token and nobody ever reads a
 * partial file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MoorError } from '../../errors.js';

export const HTTP_TOKEN_FILE = 'http.token';
/** Shorter tokens are refused: 32 base64url characters carry 192 bits. */
export const MIN_TOKEN_LENGTH = 32;

/** The token in `file`, which must be readable by its owner only and long enough. */
export function readTokenFile(file: string): string {
  let stat: fs.Stats;
  let token: string;
  try {
    stat = fs.statSync(file);
    token = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new MoorError('TOKEN_INVALID', `cannot read the token file ${file}: ${(error as Error).message}`);
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new MoorError(
      'TOKEN_INVALID',
      `the token file ${file} is readable by others (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it`,
    );
  }
  if (token.length === 0) throw new MoorError('TOKEN_INVALID', `the token file ${file} is empty`);
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new MoorError(
      'TOKEN_INVALID',
      `the token in ${file} is too short (${token.length} characters; at least ${MIN_TOKEN_LENGTH})`,
    );
  }
  return token;
}

/** The state dir's token, created when there is none yet. */
export function stateDirToken(stateDir: string): { file: string; token: string } {
  const file = path.join(stateDir, HTTP_TOKEN_FILE);
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      // Another daemon linked its token first: that one stands.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  return { file, token: readTokenFile(file) };
}
