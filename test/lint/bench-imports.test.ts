/**
 * The benchmarks import moor's built modules by path (dist/…), which no
 * compiler checks: a file moved in src/ leaves `npm run bench` dying halfway
 * with ERR_MODULE_NOT_FOUND. Every such path must name a source file that
 * exists, and the name it imports must be exported there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function benchFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return benchFiles(full);
    return entry.name.endsWith('.mjs') ? [full] : [];
  });
}

/** `import { a, b as c } from '…/dist/x.js'` and `await import('…/dist/x.js')` with the names taken. */
function distImports(file: string): Array<{ source: string; names: string[] }> {
  const text = fs.readFileSync(file, 'utf8');
  const found: Array<{ source: string; names: string[] }> = [];
  const pattern =
    /(?:import\s*\{([^{}]*)\}\s*from\s*|\{([^{}]*)\}\s*=\s*await\s+import\()\s*['"]([^'"]*\/dist\/[^'"]+\.js)['"]/g;
  for (const match of text.matchAll(pattern)) {
    const names = (match[1] ?? match[2] ?? '')
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .split(/\s+as\s+|\s*:\s*/)[0]
            ?.trim() ?? '',
      )
      .filter((n) => n !== '');
    const relative = (match[3] as string).replace(/^.*?\/dist\//, '');
    found.push({ source: path.join(ROOT, 'src', relative.replace(/\.js$/, '.ts')), names });
  }
  return found;
}

describe('the benchmarks import what the build makes', () => {
  const files = benchFiles(path.join(ROOT, 'bench'));

  it('finds the benchmarks and their dist imports', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap(distImports).length).toBeGreaterThan(10);
  });

  it('names only source files that exist and names they export', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { source, names } of distImports(file)) {
        const where = `${path.relative(ROOT, file)} → ${path.relative(ROOT, source)}`;
        if (!fs.existsSync(source)) {
          broken.push(`${where}: no such source file`);
          continue;
        }
        const text = fs.readFileSync(source, 'utf8');
        for (const name of names) {
          const exported = new RegExp(
            `export\\s+(?:async\\s+)?(?:function\\*?|class|const|let|interface|type|enum|abstract\\s+class)\\s+${name}\\b|export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`,
          );
          if (!exported.test(text)) broken.push(`${where}: does not export ${name}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
