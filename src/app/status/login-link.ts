/**
 * The status page's login link, as the banner and `moor daemon status`
 * print it: `http://127.0.0.1:<port>/status?token=<token>`. Opened in a
 * browser it sets the page's cookie and drops the token from the address
 * (src/http/page-login.ts). Without a token (--no-token) the page is open.
 */
import { readTokenFile } from '../daemon/http-token.js';

const MCP_SUFFIX = '/mcp';

/** The link for the endpoint at `httpUrl` (its `/mcp` URL); null token: the bare page. */
export function statusLoginLink(httpUrl: string, token: string | null): string {
  const base = httpUrl.endsWith(MCP_SUFFIX) ? httpUrl.slice(0, -MCP_SUFFIX.length) : httpUrl;
  return token === null ? `${base}/status` : `${base}/status?token=${encodeURIComponent(token)}`;
}

/**
 * The link for a running daemon, read from the token file its status names
 * (the caller is its user, who may read the file). Undefined when the daemon
 * serves no HTTP, or the file cannot be read (the status says why elsewhere).
 */
export function runningDaemonLoginLink(status: {
  readonly httpUrl: string | null;
  readonly httpTokenFile?: string | null;
}): string | undefined {
  if (status.httpUrl === null) return undefined;
  // An older daemon does not say; null means it serves without a token.
  if (status.httpTokenFile === undefined) return undefined;
  if (status.httpTokenFile === null) return statusLoginLink(status.httpUrl, null);
  try {
    return statusLoginLink(status.httpUrl, readTokenFile(status.httpTokenFile));
  } catch {
    return undefined;
  }
}
