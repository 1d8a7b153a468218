/**
 * Titles from a documentation site's navigation: an MkDocs `mkdocs.yml`
 * beside or above the decision folder names pages (`- Use Kafka:
 * adr/0003-kafka.md`). A record with no title of its own takes that name
 * before falling back to its file name.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { isInside, toPosix } from '../find/paths.js';

const CONFIG_NAMES = ['mkdocs.yml', 'mkdocs.yaml'];
const NAV_BLOCK = /^nav:[ \t]*\n((?:[ \t]+.*\n|[ \t]*\n|-.*\n)*)/m;
const DOCS_DIR = /^docs_dir:[ \t]*["']?([^"'\n#]+?)["']?[ \t]*(?:#.*)?$/m;

function readConfig(dir: string): string | null {
  for (const name of CONFIG_NAMES) {
    try {
      return readFileSync(path.join(dir, name), 'utf8');
    } catch {
      // not here; try the next name
    }
  }
  return null;
}

/** Page file → title, from a `nav` list of `{title: page}` entries and nested sections. */
function collect(entries: unknown, out: Map<string, string>): void {
  if (!Array.isArray(entries)) return;
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object') continue;
    for (const [title, value] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof value === 'string') {
        if (!out.has(value)) out.set(value, title);
      } else collect(value, out);
    }
  }
}

/**
 * Corpus path → navigation title, from the nearest `mkdocs.yml` in the
 * corpus folder or an ancestor inside the workspace. Empty when there is
 * none or it cannot be read; a broken site config never breaks the corpus.
 */
export function loadNavTitles(root: string, corpusDir: string): Map<string, string> {
  const titles = new Map<string, string>();
  for (let dir = corpusDir; isInside(root, dir); dir = path.dirname(dir)) {
    const text = readConfig(dir);
    if (text !== null) {
      // Only the nav block is parsed: the rest of an MkDocs config may carry Python tags js-yaml rejects.
      const block = NAV_BLOCK.exec(text.replace(/\r\n?/g, '\n'));
      if (block === null) return titles;
      let pages = new Map<string, string>();
      try {
        collect((load(`nav:\n${block[1] ?? ''}`, { schema: CORE_SCHEMA }) as { nav?: unknown }).nav, pages);
      } catch {
        pages = new Map();
      }
      const docsDir = path.resolve(dir, DOCS_DIR.exec(text)?.[1]?.trim() ?? 'docs');
      for (const [page, title] of pages) {
        const abs = path.resolve(docsDir, page);
        if (!isInside(corpusDir, abs)) continue;
        titles.set(toPosix(path.relative(corpusDir, abs)), title.trim());
      }
      return titles;
    }
    if (dir === root) break;
  }
  return titles;
}
