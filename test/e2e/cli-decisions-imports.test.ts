/**
 * What a one-shot `moor decisions …` command loads: a git hook runs them on
 * every commit, so none may pay for the MCP SDK or commander. A module hook
 * in the child records every file module it resolves; no recorded file may
 * hold SDK code (a bundle chunk counts, so the check reads each file).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'moor-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hooks = path.join(dir, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith('file:')) appendFileSync(process.env.MOOR_TEST_IMPORT_LOG, result.url + '\\n');
  return result;
}
`,
);
const register = path.join(dir, 'register.mjs');
writeFileSync(
  register,
  `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
);

/** The files `moor ARGS` loaded, by path. */
function loadedBy(name: string, args: string[]): string[] {
  const log = path.join(dir, `${name}.log`);
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', register, MOOR_BIN, ...args, '-w', E2E_WORKSPACE], {
    encoding: 'utf8',
    cwd: os.tmpdir(),
    env: { ...process.env, MOOR_TEST_IMPORT_LOG: log },
  });
  expect(result.stderr).toBe('');
  return [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))].map((url) => fileURLToPath(url));
}

// A JSON-RPC method name only the SDK spells: moor's decisions code never sends or routes messages.
const SDK_MARKER = 'notifications/initialized';

describe('one-shot decisions commands', () => {
  it.each([
    ['search', ['decisions', 'search', 'sqlite']],
    ['show', ['decisions', 'show', '3']],
    ['context', ['decisions', 'context', 'src/db/pool.ts']],
    ['superseded', ['decisions', 'superseded']],
    ['check', ['decisions', 'check']],
  ])('%s loads neither the MCP SDK nor commander', (name, args) => {
    const files = loadedBy(name, args);
    expect(files.some((f) => f.endsWith(path.join('dist', 'cli', 'main.js')))).toBe(true);
    expect(files.filter((f) => f.includes(`${path.sep}@modelcontextprotocol${path.sep}`))).toEqual([]);
    expect(files.filter((f) => f.includes(`${path.sep}commander${path.sep}`))).toEqual([]);
    expect(files.filter((f) => readFileSync(f, 'utf8').includes(SDK_MARKER))).toEqual([]);
  });
});
