/**
 * Where each MCP client keeps its server list, and the entry that points it
 * at moor. Every entry runs `moor stdio --workspace <root>` through the
 * daemon (durable sessions, tasks, shared rooms), with the absolute path of
 * the moor that prints it: node and its `main.js`, so it works whatever the
 * client's PATH holds.
 */
import os from 'node:os';
import path from 'node:path';

export const CLIENTS = ['claude-code', 'vscode', 'cursor', 'claude-desktop', 'codex'] as const;
export type ClientName = (typeof CLIENTS)[number];

/** What a server entry launches. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
}

export interface ClientConfig {
  readonly client: ClientName;
  /** The file the entry belongs in. */
  readonly file: string;
  readonly format: 'json' | 'toml';
  /** The key path of the entry in that file, e.g. ['mcpServers', 'moor']. */
  readonly entryPath: readonly [string, string];
  readonly entry: Readonly<Record<string, unknown>>;
  /** Another way to add it, when the client has a command for it (`claude mcp add …`). */
  readonly command?: string;
}

export const SERVER_NAME = 'moor';

/** `moor stdio --workspace <root>` as this running moor would be launched. */
export function launchOf(root: string, mainJs: string, node = process.execPath): Launch {
  return { command: node, args: [mainJs, 'stdio', '--workspace', root] };
}

/** Single quotes for a POSIX shell, only where a word needs them. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Claude Desktop's config file on this OS (where its Settings → Developer → Edit Config opens). */
export function claudeDesktopFile(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
): string {
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32')
    return path.join(
      env.APPDATA ?? path.join(home, 'AppData', 'Roaming'),
      'Claude',
      'claude_desktop_config.json',
    );
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** Codex CLI's config (`$CODEX_HOME/config.toml`, else `~/.codex/config.toml`). */
export function codexFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(env.CODEX_HOME ?? path.join(home, '.codex'), 'config.toml');
}

export function clientConfig(client: ClientName, root: string, launch: Launch): ClientConfig {
  const plain = { command: launch.command, args: [...launch.args] };
  switch (client) {
    case 'claude-code':
      return {
        client,
        file: path.join(root, '.mcp.json'),
        format: 'json',
        entryPath: ['mcpServers', SERVER_NAME],
        entry: { type: 'stdio', ...plain },
        command: [
          'claude',
          'mcp',
          'add',
          '--scope',
          'project',
          SERVER_NAME,
          '--',
          launch.command,
          ...launch.args,
        ]
          .map(shellWord)
          .join(' '),
      };
    case 'vscode':
      return {
        client,
        file: path.join(root, '.vscode', 'mcp.json'),
        format: 'json',
        entryPath: ['servers', SERVER_NAME],
        entry: { type: 'stdio', ...plain },
      };
    case 'cursor':
      return {
        client,
        file: path.join(root, '.cursor', 'mcp.json'),
        format: 'json',
        entryPath: ['mcpServers', SERVER_NAME],
        entry: plain,
      };
    case 'claude-desktop':
      return {
        client,
        file: claudeDesktopFile(),
        format: 'json',
        entryPath: ['mcpServers', SERVER_NAME],
        entry: plain,
      };
    case 'codex':
      return {
        client,
        file: codexFile(),
        format: 'toml',
        entryPath: ['mcp_servers', SERVER_NAME],
        entry: plain,
      };
  }
}
