/**
 * What the daemon's answers follow from, for telling whether answers primed
 * at build time still stand for the daemon a proxy starts when the build
 * stamp (install path, build time) no longer matches: a package built by
 * `npm pack` and installed elsewhere, whose files all carry one old time.
 * Its daemon is the bundle in dist/bundle (the SDK and zod inside it), used
 * when at least as new as dist/app/daemon.js (the loader's rule): the same
 * bundle files, byte for byte, answer alike. node:crypto loads only here,
 * on a proxy's cold start when the stamp did not match.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

export interface DaemonCode {
  /** The bundle's daemon files, by name. */
  readonly files: readonly string[];
  /** SHA-1 over each file's name and bytes, in that order. */
  readonly sha1: string;
}

/** The daemon bundle beside `dist` (a dist/ folder URL, ending in '/'), or undefined when it is missing or stale. */
export function daemonCodeOf(dist: URL): DaemonCode | undefined {
  const bundle = new URL('bundle/', dist);
  try {
    if (
      fs.statSync(new URL('daemon.js', bundle)).mtimeMs < fs.statSync(new URL('app/daemon.js', dist)).mtimeMs
    )
      return undefined;
    const files = fs
      .readdirSync(bundle)
      .filter((name) => name.startsWith('daemon') && name.endsWith('.js'))
      .sort();
    const { createHash } = createRequire('/')('node:crypto') as typeof import('node:crypto');
    const hash = createHash('sha1');
    for (const name of files) hash.update(`${name}\0`).update(fs.readFileSync(new URL(name, bundle)));
    return { files, sha1: hash.digest('hex') };
  } catch {
    return undefined;
  }
}
