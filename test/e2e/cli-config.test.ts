/**
 * `moor config <client>`: each snippet parses as its client's format and runs
 * the daemon path (`moor stdio --workspace <root>`) with absolute paths;
 * `--write` merges into a file with other servers, keeps `.bak`, and refuses
 * a file that does not parse without touching it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, makeState, runCli } from '../daemon/harness.js';
import { MOOR_BIN } from '../helpers/paths.js';

afterEach(cleanupAll);

const CASES = [
  ['claude-code', 'json', ['mcpServers', 'moor']],
  ['vscode', 'json', ['servers', 'moor']],
  ['cursor', 'json', ['mcpServers', 'moor']],
  ['claude-desktop', 'json', ['mcpServers', 'moor']],
  ['codex', 'toml', ['mcp_servers', 'moor']],
] as const;

describe('moor config', () => {
  for (const [client, format, [section, name]] of CASES) {
    it(`${client}: a ${format} snippet through the daemon`, async () => {
      const state = makeState();
      const run = await runCli(state, ['config', client, '-w', state.dir], { HOME: state.dir });
      expect(run.code).toBe(0);
      const doc = (format === 'json' ? JSON.parse(run.stdout) : parseToml(run.stdout)) as Record<
        string,
        Record<string, { command: string; args: string[] }>
      >;
      const entry = doc[section]?.[name];
      expect(entry?.command).toBe(process.execPath);
      expect(entry?.args).toEqual([MOOR_BIN, 'stdio', '--workspace', state.dir]);
    });
  }

  it('--write merges into a file with other servers and keeps the old one as .bak', async () => {
    const state = makeState();
    const file = path.join(state.dir, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(file));
    const before = JSON.stringify({ mcpServers: { other: { command: 'x' } }, extra: 1 });
    fs.writeFileSync(file, before);
    const run = await runCli(state, ['config', 'cursor', '--write', '-w', state.dir]);
    expect(run.code).toBe(0);
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(after.extra).toBe(1);
    expect(after.mcpServers.other).toEqual({ command: 'x' });
    expect(after.mcpServers.moor.args).toEqual([MOOR_BIN, 'stdio', '--workspace', state.dir]);
    expect(fs.readFileSync(`${file}.bak`, 'utf8')).toBe(before);
  });

  it('--write into TOML keeps comments and other tables', async () => {
    const state = makeState();
    const file = path.join(state.dir, 'config.toml');
    fs.writeFileSync(
      file,
      '# mine\nmodel = "o3"\n[mcp_servers.other]\ncommand = "x"\n[mcp_servers.moor]\ncommand = "old"\n',
    );
    const run = await runCli(state, ['config', 'codex', '--write', '-w', state.dir], {
      CODEX_HOME: state.dir,
    });
    expect(run.code).toBe(0);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# mine');
    const doc = parseToml(text) as { model: string; mcp_servers: Record<string, { command: string }> };
    expect(doc.model).toBe('o3');
    expect(doc.mcp_servers.other?.command).toBe('x');
    expect(doc.mcp_servers.moor?.command).toBe(process.execPath);
  });

  it('--write refuses invalid JSON and TOML with the line, leaving the file as it was', async () => {
    const state = makeState();
    const json = path.join(state.dir, '.mcp.json');
    fs.writeFileSync(json, '{\n  "mcpServers": {\n  },\n}\n');
    const run = await runCli(state, ['config', 'claude-code', '--write', '-w', state.dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^moor: ${json}:4 is not valid JSON`));
    expect(fs.readFileSync(json, 'utf8')).toBe('{\n  "mcpServers": {\n  },\n}\n');
    expect(fs.existsSync(`${json}.bak`)).toBe(false);
    const toml = path.join(state.dir, 'config.toml');
    fs.writeFileSync(toml, 'a = 1\nb = [\n');
    const bad = await runCli(state, ['config', 'codex', '--write', '-w', state.dir], {
      CODEX_HOME: state.dir,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^moor: ${toml}:\\d+ is not valid TOML`));
    expect(fs.readFileSync(toml, 'utf8')).toBe('a = 1\nb = [\n');
  });
});
