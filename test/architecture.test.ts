/**
 * docs/architecture.md cannot drift from src/: §3 must name every file the
 * tree has and no file it lacks, and §2's import table (which moor folder
 * imports which) must hold for the real imports of every file in src/.
 *
 * §3 is a table of folders; each backticked `name.ts` in a folder's row is
 * that folder's file (a `sub/name.ts` one of its subfolder's). A name that is
 * no file there may still point into another folder by its path under src/
 * (`host/pack.ts`), which names nothing new.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/paths.js';

const SRC = path.join(REPO_ROOT, 'src');
const MAP = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');

function section(title: RegExp): string {
  const start = MAP.search(title);
  if (start < 0) throw new Error(`docs/architecture.md has no section ${title}`);
  const rest = MAP.slice(start + 1);
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else out.push(path.relative(REPO_ROOT, full).split(path.sep).join('/'));
  }
  return out.sort();
}

interface Listing {
  readonly named: Set<string>;
  readonly missing: string[];
  readonly claimedCount: number | undefined;
}

/** What §3 names: each row's folder(s), and the files its backticked names resolve to. */
function listing(): Listing {
  const text = section(/^## 3\. /m);
  const named = new Set<string>();
  const missing: string[] = [];
  for (const row of text.split('\n').filter((line) => line.startsWith('| `src/'))) {
    const [, folderCell = '', filesCell = ''] = row.split(/(?<!\\)\|/);
    const folders = [...folderCell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const base = (folders[0] ?? '').replace(/\/$/, '');
    const roots = folders.map((f) => (f.startsWith('src/') ? f : `${path.posix.dirname(base)}/${f}`));
    for (const [, name] of filesCell.matchAll(/`([^`\s]+\.c?ts)`/g)) {
      // A row of several folders (`pack.ts` each) names the file in each of them.
      const exists = (c: string) => fs.existsSync(path.join(REPO_ROOT, c));
      const inRow = roots.map((root) => path.posix.join(root, name as string)).filter(exists);
      const found = inRow.length > 0 ? inRow : [path.posix.join('src', name as string)].filter(exists);
      if (found.length === 0) missing.push(`${base}: ${name}`);
      for (const file of found) named.add(file);
    }
  }
  const count = /checked against `find src -type f` \((\d+) files\)/.exec(text);
  return { named, missing, claimedCount: count ? Number(count[1]) : undefined };
}

/** §2's table: folder → the moor folders it may import. */
function layerClaims(): Map<string, Set<string>> {
  const text = section(/^## 2\. /m);
  const claims = new Map<string, Set<string>>();
  for (const [, folder, allowed] of text.matchAll(
    /^\| `(src\/[a-z/-]+\/|errors\.ts)` imports \| ([^|]*) \|/gm,
  )) {
    const names = [...(allowed as string).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    claims.set(folder as string, new Set(names));
  }
  return claims;
}

/** The top-level unit of a src path: `host`, `packs/decisions`, or `errors.ts`. */
function unitOf(file: string): string {
  const parts = file.replace(/^src\//, '').split('/');
  if (parts.length === 1) return parts[0] as string;
  return parts[0] === 'packs' ? `packs/${parts[1]}` : (parts[0] as string);
}

function importsOf(file: string): string[] {
  const source = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const out: string[] = [];
  const pattern =
    /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(pattern)) {
    const spec = (m[1] ?? m[2]) as string;
    out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return out;
}

describe('docs/architecture.md', () => {
  const files = filesUnder(SRC);

  it('§3 names every file in src/', () => {
    const { named } = listing();
    expect(files.filter((f) => !named.has(f))).toEqual([]);
  });

  it('§3 names no file that does not exist', () => {
    expect(listing().missing).toEqual([]);
  });

  it('§3 gives the real file count', () => {
    expect(listing().claimedCount).toBe(files.length);
  });

  it("§2's import table holds for every import in src/", () => {
    const claims = layerClaims();
    const units = new Set(files.map(unitOf));
    expect([...units].filter((u) => !claims.has(`src/${u}/`) && !claims.has(u)).sort()).toEqual([]);
    const broken: string[] = [];
    for (const file of files.filter((f) => /\.c?ts$/.test(f))) {
      const from = unitOf(file);
      const allowed = claims.get(from === 'errors.ts' ? from : `src/${from}/`) ?? new Set<string>();
      for (const target of importsOf(file)) {
        if (!target.startsWith('src/')) continue;
        const to = unitOf(target);
        if (to !== from && !allowed.has(to)) broken.push(`${file} imports ${target} (${from} → ${to})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
