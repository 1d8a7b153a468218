/**
 * The proxy starts fast because it loads almost nothing: the built dist/proxy
 * files may import only node built-ins, each other, dist/protocol and
 * dist/errors.js (no pack code, no SDK, no commander), and the CLI entry
 * reaches the proxy before loading anything else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const DIST = path.join(REPO_ROOT, 'dist');
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) found.push((m[1] ?? m[2] ?? m[3]) as string);
  return found;
}

/** Every file reachable from `entry` through static and dynamic imports. */
function graph(entry: string): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else external.add(spec);
    }
  };
  visit(entry);
  return { files, external };
}

describe('the proxy import graph', () => {
  it('dist/proxy reaches only node built-ins, dist/proxy, dist/protocol and dist/errors.js', () => {
    const entries = fs.readdirSync(path.join(DIST, 'proxy')).filter((f) => f.endsWith('.js'));
    expect(entries).toContain('main.js');
    // Every module of the relay, so none of them escapes the check.
    for (const module of ['relay.js', 'supervisor.js', 'replay.js', 'ledger.js', 'routing.js', 'tools.js'])
      expect(entries).toContain(module);
    for (const entry of entries) {
      const { files, external } = graph(path.join(DIST, 'proxy', entry));
      for (const spec of external) expect(spec, `${entry} imports ${spec}`).toMatch(/^node:/);
      for (const file of files) {
        const rel = path.relative(DIST, file);
        expect(rel, `${entry} reaches ${rel}`).toMatch(/^(?:(?:proxy|protocol)\/|errors\.js$)/);
      }
      // protocol/constants.js would pull in the SDK types only; make sure nothing SDK-shaped sneaks in at run time.
      expect([...files].some((f) => f.includes('/packs/') || f.includes('/host/'))).toBe(false);
    }
  });

  it('the CLI entry statically imports nothing of moor: each command imports what it needs', () => {
    const statics = (file: string) =>
      [
        ...fs
          .readFileSync(path.join(DIST, file), 'utf8')
          .matchAll(/^import\s[^(]*?from\s*['"]([^'"]+)['"]/gm),
      ].map((m) => m[1]);
    expect(statics('cli/main.js')).toEqual([]);
    // The closed-stdout rule costs the proxy's start nothing: it imports nothing itself.
    expect(statics('cli/closed-stdout.js')).toEqual([]);
  });
});
