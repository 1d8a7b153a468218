import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built CLI: e2e tests drive the real binary, never the sources. */
export const MOOR_BIN = path.join(REPO_ROOT, 'dist/cli/main.js');
export const E2E_WORKSPACE = path.join(REPO_ROOT, 'test/fixtures/e2e/repo');
