/**
 * Which moor a handoff really hands over to. A control hello only claims a
 * version; any process of the user can send one. So the daemon reads the
 * version from the package.json beside the binary the asker names, and only
 * trusts files the user owns that nobody else may rewrite: otherwise another
 * user could plant the "newer moor" this daemon then starts.
 */
import fs from 'node:fs';
import path from 'node:path';

export type VerifiedBinary =
  | { readonly ok: true; readonly binary: string; readonly name: string; readonly version: string }
  | { readonly ok: false; readonly problem: string };

/** How many folders up from the binary its package.json may be (dist/cli/main.js → 2). */
const PACKAGE_JSON_DEPTH = 4;

function trustProblem(file: string): string | undefined {
  const stat = fs.statSync(file);
  if (!stat.isFile()) return `${file} is not a file`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `${file} belongs to another user`;
  if ((stat.mode & 0o022) !== 0) return `${file} may be written by other users`;
  return undefined;
}

/** The name and version of the moor whose CLI entry is `binary`, read from its files. */
export function verifyBinary(binary: string): VerifiedBinary {
  if (!path.isAbsolute(binary)) return { ok: false, problem: `${binary} is not an absolute path` };
  try {
    const real = fs.realpathSync(binary);
    const problem = trustProblem(real);
    if (problem !== undefined) return { ok: false, problem };
    let dir = path.dirname(real);
    for (let up = 0; up < PACKAGE_JSON_DEPTH; up++, dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const manifestProblem = trustProblem(manifest);
      if (manifestProblem !== undefined) return { ok: false, problem: manifestProblem };
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string')
        return { ok: false, problem: `${manifest} names no package version` };
      return { ok: true, binary: real, name: pkg.name, version: pkg.version };
    }
    return { ok: false, problem: `no package.json above ${real}` };
  } catch (error) {
    return { ok: false, problem: `${binary} cannot be read: ${(error as Error).message}` };
  }
}
