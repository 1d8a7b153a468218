/**
 * Throwaway copies of the e2e repository, so that each test's workspaces
 * are distinct roots; removed together at the end of a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2E_WORKSPACE } from './paths.js';

export class WorkspaceCopies {
  readonly #prefix: string;
  readonly #dirs: string[] = [];

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** A fresh copy (its real path); `without` drops decision files so copies can be told apart. */
  copy(...without: string[]): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), this.#prefix)));
    this.#dirs.push(dir);
    fs.cpSync(E2E_WORKSPACE, dir, { recursive: true });
    for (const file of without) fs.rmSync(path.join(dir, 'docs/decisions', file));
    return dir;
  }

  removeAll(): void {
    for (const dir of this.#dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }
}
