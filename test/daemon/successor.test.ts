/**
 * When a handoff's successor does not come up: one that died leaves the
 * handoff marker in place (renewed) while this daemon starts itself again, so
 * no proxy races that start; one that lives but never came up is stopped,
 * since it holds the HTTP socket it was handed. Real processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { beginSuccession } from '../../src/daemon/successor.js';
import { readHandoffMarker, writeHandoffMarker } from '../../src/protocol/handoff.js';
import { isAliveProcess } from '../../src/protocol/process-liveness.js';
import { statePaths } from '../../src/protocol/state-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function stateWith(script: string): { paths: ReturnType<typeof statePaths>; binary: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-successor-'));
  dirs.push(dir);
  const binary = path.join(dir, 'successor.mjs');
  fs.writeFileSync(binary, script);
  return { paths: statePaths(dir), binary };
}

describe('a successor that does not come up', () => {
  it('one that died: the marker stays, renewed, while this daemon starts again', async () => {
    const { paths, binary } = stateWith('process.exit(1);\n');
    const at = Date.now() - 10_000;
    writeHandoffMarker(paths.dir, {
      pid: process.pid,
      from: '0.1.0',
      to: '0.3.0',
      at,
      startsSuccessor: true,
    });
    let markerAtRestart: ReturnType<typeof readHandoffMarker> | 'not restarted' = 'not restarted';
    const successor = beginSuccession({
      paths,
      binary,
      log: () => {},
      waitMs: 20_000,
      restart: () => {
        markerAtRestart = readHandoffMarker(paths.dir);
      },
    });
    await successor.settled();
    expect(markerAtRestart).toMatchObject({ to: '0.3.0', startsSuccessor: true });
    expect((markerAtRestart as unknown as { at: number }).at).toBeGreaterThan(at);
  });

  it('one alive that never wrote its incarnation is stopped before this daemon starts again', async () => {
    const { paths, binary } = stateWith(
      "import fs from 'node:fs';\nfs.writeFileSync(process.env.MOOR_STATE_DIR + '/successor.pid', String(process.pid));\nsetInterval(() => {}, 1000);\n",
    );
    const said: string[] = [];
    let alive: boolean | undefined;
    const pidFile = path.join(paths.dir, 'successor.pid');
    const successor = beginSuccession({
      paths,
      binary,
      log: (line) => said.push(line),
      waitMs: 200,
      restart: () => {
        alive = isAliveProcess(Number(fs.readFileSync(pidFile, 'utf8')));
      },
    });
    // It runs (it wrote its pid) but never writes an incarnation.
    while (!fs.existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20));
    await successor.settled();
    expect(said.filter((line) => /did not come up: stopping it/.test(line))).toHaveLength(1);
    // Gone (and reaped) before the restart: the HTTP socket it held is closed.
    expect(alive).toBe(false);
  });
});
