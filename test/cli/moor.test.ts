/**
 * The `moor` binary (dist/cli/moor.cjs, package.json's bin) against main.js:
 * every command prints the same bytes on both streams and exits alike,
 * whether moor.cjs runs it from the bundle itself (a well-formed decisions
 * command) or hands it to main.js (help, usage errors, other commands); and a
 * bundled decisions command never starts Node's ES module pipeline, which is
 * what the CommonJS entry is for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, makeState, runCli } from '../daemon/harness.js';
import { MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';

afterAll(cleanupAll);

const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  bin: { moor: string };
  version: string;
};
const BIN = path.join(REPO_ROOT, PACKAGE.bin.moor);
const CORPUS = path.join(REPO_ROOT, 'test/fixtures/corpora/search');
const WHERE = ['-w', CORPUS, '-d', CORPUS];
const OFF = { MOOR_ASK_DAEMON: 'off' };

/** Records, at exit, which of Node's ES loader modules the process loaded. */
const ESM_PROBE = path.join(REPO_ROOT, 'test/fixtures/esm-probe.cjs');

describe('the moor binary', () => {
  it('is the CommonJS entry', () => {
    expect(PACKAGE.bin.moor).toBe('dist/cli/moor.cjs');
  });

  const CASES: ReadonlyArray<readonly string[]> = [
    ['decisions', 'search', 'cache', ...WHERE],
    ['decisions', 'search', 'cache', '--json', ...WHERE],
    ['decisions', 'show', '1', ...WHERE],
    ['decisions', 'show', '9999', ...WHERE],
    ['decisions', 'check', ...WHERE],
    ['decisions', 'search', ...WHERE],
    ['decisions', 'search', 'cache', '--limit', 'many', ...WHERE],
    ['decisions', '--help'],
    ['decisions', 'nonsense'],
    ['--version'],
    ['--help'],
  ];

  for (const args of CASES) {
    it(`prints and exits as main.js does: moor ${args.filter((a) => !a.startsWith('/')).join(' ')}`, async () => {
      const state = makeState(OFF);
      const viaBin = await runCli(state, args, {}, BIN);
      const viaMain = await runCli(state, args, {}, MOOR_BIN);
      expect(viaBin).toEqual(viaMain);
    });
  }

  it('answers a well-formed decisions command without Node starting its ES module pipeline', async () => {
    const state = makeState({ ...OFF, NODE_OPTIONS: `--require ${ESM_PROBE}` });
    const shown = await runCli(state, ['decisions', 'show', '1', ...WHERE], {}, BIN);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('# ');
    expect(shown.stderr).toMatch(/^esm-probe: /m);
    expect(shown.stderr).not.toMatch(/esm\/module_job/);
    // The probe sees the pipeline when main.js runs: the assertion above can fail.
    const viaMain = await runCli(state, ['decisions', 'show', '1', ...WHERE], {}, MOOR_BIN);
    expect(viaMain.stderr).toMatch(/esm\/module_job/);
  });

  it('hands `moor --version` to main.js, which answers with the package version', async () => {
    const state = makeState();
    const out = await runCli(state, ['--version'], {}, BIN);
    expect(out).toEqual({ code: 0, stdout: `${PACKAGE.version}\n`, stderr: '' });
  });
});
