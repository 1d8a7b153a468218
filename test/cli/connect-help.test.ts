/**
 * The `npm start` banner prints the status page's login link (or the bare page
 * without a token), and Inspector commands that run as printed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectHelp, INSPECTOR_VERSION } from '../../src/cli/connect-help.js';
import { REPO_ROOT } from '../helpers/paths.js';

const base = { workspace: '/w', bin: '/moor/dist/cli/main.js', httpTokenFile: '/s/http.token' };

describe('the banner', () => {
  it('prints the login link with the token', () => {
    const text = connectHelp({ ...base, httpUrl: 'http://127.0.0.1:7410/mcp', httpToken: 'a+b/c' });
    expect(text).toContain(
      'Status page (open it in a browser; the link logs you in): http://127.0.0.1:7410/status?token=a%2Bb%2Fc',
    );
  });

  it('prints the bare page with --no-token, and nothing without HTTP', () => {
    const open = connectHelp({ ...base, httpUrl: 'http://127.0.0.1:7410/mcp', httpToken: null });
    expect(open).toContain('logs you in): http://127.0.0.1:7410/status\n');
    expect(connectHelp({ ...base, httpUrl: null, httpToken: null })).not.toContain('/status');
  });
});

/** What every printed Inspector command runs: the exact version, never whatever npx has cached. */
const PINNED = 'npx -y @modelcontextprotocol/inspector@2.12.0 ';

/** Each `npx …` command in `text`, from `npx` to the end of its line. */
function npxCommands(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const at = line.indexOf('npx ');
    return at < 0 ? [] : [line.slice(at)];
  });
}

describe('printed Inspector commands are pinned', () => {
  it('the banner prints only npx commands with the exact Inspector version', () => {
    expect(INSPECTOR_VERSION).toBe('2.12.0');
    for (const httpToken of ['a+b/c', null]) {
      const commands = npxCommands(connectHelp({ ...base, httpUrl: 'http://127.0.0.1:7410/mcp', httpToken }));
      expect(commands).toHaveLength(2);
      for (const command of commands) expect(command.startsWith(PINNED), command).toBe(true);
    }
  });

  it('the README and docs pin every Inspector command the same way', () => {
    const files = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).map((f) => `docs/${f}`)];
    const commands = files
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => npxCommands(readFileSync(path.join(REPO_ROOT, file), 'utf8')))
      .filter((command) => command.includes('inspector'));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) expect(command.startsWith(PINNED), command).toBe(true);
  });
});

describe("the README's client example", () => {
  it('runs moor stdio through the daemon and names moor config', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Wire it into an MCP client'),
      readme.indexOf('## The daemon'),
    );
    const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    const example = JSON.parse(json ?? '{}') as { mcpServers: { moor: { command: string; args: string[] } } };
    expect(example.mcpServers.moor.args.slice(1)).toEqual(['stdio', '--workspace', '/path/to/your/repo']);
    expect(section).toContain('`moor config <client>`');
    expect(section).toContain('`moor stdio --direct`');
  });
});
