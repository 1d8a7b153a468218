/**
 * What a person sees when the daemon runs in the foreground (`npm start`):
 * how to point a client at it, in both eras.
 */

export function connectHelp(options: { httpUrl: string | null; workspace: string; bin: string }): string {
  const { httpUrl, workspace, bin } = options;
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
    lines.push(
      '',
      `or over Streamable HTTP: ${httpUrl}`,
      '',
      'Try it with the MCP Inspector CLI (in another terminal):',
      `  npx @modelcontextprotocol/inspector --cli --protocol-era legacy --method tools/list -- ${httpUrl}`,
      `  npx @modelcontextprotocol/inspector --cli --protocol-era modern --method tools/call --tool-name search_decisions --tool-args-json '{"query":"sqlite"}' -- ${httpUrl}`,
    );
  }
  lines.push('', 'Stop with Ctrl-C (in-flight requests finish first).', '');
  return lines.join('\n');
}
