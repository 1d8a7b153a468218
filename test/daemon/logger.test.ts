import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDaemonLog, rotateFile, withTrace } from '../../src/daemon/logger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-log-'));
  dirs.push(dir);
  return dir;
}

describe('daemon log', () => {
  it('rotates an over-size file on open, keeping one previous file', () => {
    const dir = tmp();
    const file = path.join(dir, 'daemon.log');
    fs.writeFileSync(file, 'x'.repeat(2000));
    fs.writeFileSync(`${file}.1`, 'older');
    expect(rotateFile(file, 1000)).toBe(true);
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toHaveLength(2000);
    expect(fs.existsSync(file)).toBe(false);
    expect(rotateFile(file, 1000)).toBe(false);
  });

  it('writes JSON lines 0600 and rotates a live log past its bound', async () => {
    const dir = tmp();
    const file = path.join(dir, 'daemon.log');
    const log = createDaemonLog({ file, stderr: false, maxBytes: 4096, checkMs: 60_000 });
    for (let i = 0; i < 100; i++) log.logger.info({ i }, withTrace('hello', i === 0 ? 'abc' : undefined));
    await new Promise((r) => setTimeout(r, 100));
    log.rotateIfNeeded();
    await new Promise((r) => setTimeout(r, 50));
    log.logger.info('after rotation');
    await new Promise((r) => setTimeout(r, 50));
    log.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(fs.statSync(`${file}.1`).size).toBeGreaterThan(4096);
    expect(fs.readFileSync(`${file}.1`, 'utf8').split('\n')[0]).toContain('"msg":"hello trace=abc"');
    expect(fs.readFileSync(file, 'utf8')).toContain('after rotation');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a daemon.log planted as a symlink, leaving its target untouched', () => {
    const dir = tmp();
    const target = path.join(dir, 'someone-elses-file');
    fs.writeFileSync(target, 'untouched\n');
    const file = path.join(dir, 'daemon.log');
    fs.symlinkSync(target, file);
    expect(() => createDaemonLog({ file, stderr: false })).toThrow(
      expect.objectContaining({ code: 'STATE_DIR_UNUSABLE', data: { errno: 'ELOOP' } }),
    );
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n');
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('is ready at once: a process exiting right after opening it exits cleanly (no "not ready" trace)', async () => {
    const file = path.join(tmp(), 'daemon.log');
    const script = `
      import { createDaemonLog } from ${JSON.stringify(path.resolve('dist/daemon/logger.js'))};
      createDaemonLog({ file: ${JSON.stringify(file)}, stderr: false }).logger.info('first line');
      process.exit(3);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(3);
    expect(fs.readFileSync(file, 'utf8')).toContain('first line');
  });
});
