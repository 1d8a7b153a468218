/**
 * What a person sees when the daemon runs in the foreground (`npm start`):
 * how to point a client at it, in both eras, with the bearer token HTTP
 * clients must send, and the status page's login link.
 */
import { statusLoginLink } from '../app/status/login-link.js';

/**
 * The MCP Inspector the printed commands run, pinned: an unpinned `npx` runs
 * whatever Inspector the machine has cached, and one older than 2.x has no
 * `--protocol-era` (the command then fails as printed). The same version the
 * project's own Inspector checks use.
 */
export const INSPECTOR_VERSION = '2.12.0';
const INSPECTOR = `npx -y @modelcontextprotocol/inspector@${INSPECTOR_VERSION}`;

export interface ConnectHelpOptions {
  readonly httpUrl: string | null;
  /** The bearer token; null when HTTP runs with --no-token. */
  readonly httpToken: string | null;
  /** Where the token lives, when it is the state dir's. */
  readonly httpTokenFile: string | null;
  readonly workspace: string;
  readonly bin: string;
  /** The MOOR_STATE_DIR the daemon runs with, when set: the token command must find the same daemon. */
  readonly stateDir?: string | undefined;
}

export function connectHelp(options: ConnectHelpOptions): string {
  const { httpUrl, httpToken, httpTokenFile, workspace, bin } = options;
  const lines = [
    '',
    `moor is serving the decision records of ${workspace}`,
    '',
    'Connect an MCP client over stdio (it reaches this daemon through `moor stdio`):',
    JSON.stringify(
      { mcpServers: { moor: { command: 'node', args: [bin, 'stdio', '--workspace', workspace] } } },
      null,
      2,
    ),
  ];
  if (httpUrl) {
    // The state dir's token is fetched at each use through `moor daemon token`, which hands it out
    // only while this user's daemon listens at the URL: a config holding the literal token would
    // send it to whoever binds the port while the daemon is down.
    const fetched = httpToken !== null && httpTokenFile !== null;
    const env = options.stateDir === undefined ? '' : `MOOR_STATE_DIR=${shellQuote(options.stateDir)} `;
    const tokenCommand = `${env}node ${shellQuote(bin)} daemon token --url ${httpUrl}`;
    const bearer = httpToken === null ? '' : fetched ? `$(${tokenCommand})` : httpToken;
    const header = httpToken === null ? '' : ` --header "Authorization: Bearer ${bearer}"`;
    lines.push('', `or over Streamable HTTP: ${httpUrl}`);
    if (httpToken === null) {
      lines.push('without a bearer token (--no-token): every local user can call the tools.');
    } else if (fetched) {
      lines.push(
        'sending the header  Authorization: Bearer <token>, where the client gets the token from',
        `  ${tokenCommand}`,
        `which prints it only while your own daemon listens there (it is kept in ${httpTokenFile}, mode 0600).`,
      );
    } else {
      lines.push(`sending the header  Authorization: Bearer ${httpToken}`);
    }
    lines.push(
      '',
      `Status page (open it in a browser; the link logs you in): ${statusLoginLink(httpUrl, httpToken)}`,
    );
    lines.push(
      '',
      'Try it with the MCP Inspector CLI (in another terminal):',
      `  ${INSPECTOR} --cli --protocol-era legacy --method tools/list${header} -- ${httpUrl}`,
      `  ${INSPECTOR} --cli --protocol-era modern --method tools/call --tool-name search_decisions --tool-args-json '{"query":"sqlite"}'${header} -- ${httpUrl}`,
    );
  }
  lines.push('', 'Stop with Ctrl-C (in-flight requests finish first).', '');
  return lines.join('\n');
}

/** `value` as one POSIX shell word (single-quoted when it holds anything but safe characters). */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
