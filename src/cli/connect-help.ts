/**
 * What a person sees when the daemon runs in the foreground (`npm start`):
 * how to point a client at it, in both eras, with the bearer token HTTP
 * clients must send, and the status page's login link.
 */
import { statusLoginLink } from '../app/status/login-link.js';

export interface ConnectHelpOptions {
  readonly httpUrl: string | null;
  /** The bearer token; null when HTTP runs with --no-token. */
  readonly httpToken: string | null;
  /** Where the token lives, when it is the state dir's. */
  readonly httpTokenFile: string | null;
  readonly workspace: string;
  readonly bin: string;
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
    const header = httpToken === null ? '' : ` --header 'Authorization: Bearer ${httpToken}'`;
    lines.push('', `or over Streamable HTTP: ${httpUrl}`);
    if (httpToken === null) {
      lines.push('without a bearer token (--no-token): every local user can call the tools.');
    } else {
      lines.push(
        `sending the header  Authorization: Bearer ${httpToken}`,
        ...(httpTokenFile === null ? [] : [`(the token is kept in ${httpTokenFile}, mode 0600)`]),
      );
    }
    lines.push(
      '',
      `Status page (open it in a browser; the link logs you in): ${statusLoginLink(httpUrl, httpToken)}`,
    );
    lines.push(
      '',
      'Try it with the MCP Inspector CLI (in another terminal):',
      `  npx @modelcontextprotocol/inspector --cli --protocol-era legacy --method tools/list${header} -- ${httpUrl}`,
      `  npx @modelcontextprotocol/inspector --cli --protocol-era modern --method tools/call --tool-name search_decisions --tool-args-json '{"query":"sqlite"}'${header} -- ${httpUrl}`,
    );
  }
  lines.push('', 'Stop with Ctrl-C (in-flight requests finish first).', '');
  return lines.join('\n');
}
