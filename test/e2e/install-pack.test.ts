/**
 * moor installs like any CLI: the tarball `npm pack` makes, installed
 * globally into a temporary prefix, runs as `moor` from any directory, and
 * its `moor stdio` starts and uses the daemon in both eras; `npx --package`
 * runs the same tarball. The install takes its dependencies from the npm
 * cache `npm ci` filled. better-sqlite3's install script runs as for any
 * user, but is handed the binary `npm ci` built for this checkout as its local
 * prebuild: without one it compiles SQLite from source (over seven minutes on
 * a busy two-core machine) when it cannot download a prebuilt binary.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/protocol/state-dir.js';
import { cleanupAll, makeState, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, REPO_ROOT } from '../helpers/paths.js';

const INSTALL_TIMEOUT_MS = 5 * 60_000;
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};

let tmp: string;
let tarball: string;
let installedBin: string;
let prebuilds: string;
let state: TestState;
/** A directory that is neither the repository nor the prefix: the installed command must not lean on its cwd. */
let elsewhere: string;

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The checkout's compiled better-sqlite3 packed as the prebuild tarball its
 * install script looks for (name and layout as its releases have them).
 */
function localSqlitePrebuild(): string {
  const packageDir = path.dirname(
    createRequire(path.join(REPO_ROOT, 'package.json')).resolve('better-sqlite3/package.json'),
  );
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = path.join(tmp, 'prebuilds');
  fs.mkdirSync(dir);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', path.join(dir, name), '-C', packageDir, 'build/Release/better_sqlite3.node']);
  return dir;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-install-'));
  elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-elsewhere-'));
  state = makeState();
  // prebuild-install reads this variable itself; npm's "Unknown env config" warning about it is harmless.
  prebuilds = localSqlitePrebuild();
  // The suite's dist/ is already built (`npm test` builds first); packing with prepack would rebuild
  // it under the feet of the tests running beside this one, so the hook itself is asserted below.
  const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], REPO_ROOT);
  const [entry] = JSON.parse(packed) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!entry) throw new Error('npm pack printed no entry');
  tarball = path.join(tmp, entry.filename);
  npm(
    [
      'install',
      '-g',
      '--prefix',
      path.join(tmp, 'prefix'),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
    ],
    elsewhere,
    { ...process.env, npm_config_better_sqlite3_local_prebuilds: prebuilds },
  );
  installedBin = path.join(tmp, 'prefix/bin/moor');
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (installedBin && fs.existsSync(installedBin)) {
    try {
      execFileSync(installedBin, ['daemon', 'stop'], { env: state.env, stdio: 'ignore' });
    } catch {
      // cleanupAll kills whatever is left by its pid.
    }
  }
  await cleanupAll();
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

async function connectInstalled(era: '2025-11-25' | '2026-07-28'): Promise<Client> {
  const client = new Client(
    { name: 'moor-install-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: era === '2026-07-28' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  const transport = new StdioClientTransport({
    command: installedBin,
    args: ['stdio', '--workspace', E2E_WORKSPACE],
    cwd: elsewhere,
    stderr: 'pipe',
    env: state.env,
  });
  await client.connect(transport);
  return client;
}

describe('the packed tarball', () => {
  it('builds on pack and ships what the binary runs, nothing of the repository besides', () => {
    expect(pkg.scripts.prepack).toBe('npm run build');
    const listed = JSON.parse(npm(['pack', '--ignore-scripts', '--dry-run', '--json'], REPO_ROOT)) as Array<{
      files: Array<{ path: string }>;
    }>;
    const files = (listed[0]?.files ?? []).map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/cli/main.js',
        'dist/cli/moor.cjs',
      ]),
    );
    expect(files).toContain('dist/bundle/daemon.js');
    const outside = files.filter(
      (f) => !f.startsWith('dist/') && !['LICENSE', 'README.md', 'package.json'].includes(f),
    );
    expect(outside).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('installed globally, `moor --version` runs from another directory', () => {
    const out = execFileSync(installedBin, ['--version'], { cwd: elsewhere, encoding: 'utf8' });
    expect(out.trim()).toBe(pkg.version);
  });

  it('`moor stdio` of the installed copy starts the daemon and serves both eras through it', async () => {
    const paths = statePaths(state.dir);
    expect(fs.existsSync(paths.socket)).toBe(false);

    const legacy = await connectInstalled('2025-11-25');
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const legacyTools = (await legacy.listTools()).tools.map((t) => t.name);
    expect(legacyTools).toContain('search_decisions');

    const modern = await connectInstalled('2026-07-28');
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const modernTools = (await modern.listTools()).tools.map((t) => t.name);
    expect(modernTools).toEqual(legacyTools);

    // The handshake and the tool list may come from the proxy's primed answers while the daemon
    // starts; a tool call is always the daemon's, so once both are answered it is up and both
    // proxies are connected to it.
    for (const client of [legacy, modern]) {
      const found = await client.callTool({ name: 'search_decisions', arguments: { query: 'decision' } });
      expect(found.isError ?? false).toBe(false);
    }
    expect(fs.existsSync(paths.socket)).toBe(true);
    const status = JSON.parse(
      execFileSync(installedBin, ['daemon', 'status', '--json'], {
        cwd: elsewhere,
        env: state.env,
        encoding: 'utf8',
      }),
    ) as { running: boolean; version: string; connectedClients: number };
    expect(status).toMatchObject({ running: true, version: pkg.version, connectedClients: 2 });
    await legacy.close();
    await modern.close();
  });

  it('`npx --package <tarball> moor --version` runs it too', () => {
    // npx installs into a folder of its own cache, better-sqlite3's script included, from the same prebuild.
    const out = execFileSync('npx', ['-y', '--package', tarball, 'moor', '--version'], {
      cwd: elsewhere,
      env: {
        ...process.env,
        npm_config_better_sqlite3_local_prebuilds: prebuilds,
        npm_config_prefer_offline: 'true',
      },
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(pkg.version);
  });
});
