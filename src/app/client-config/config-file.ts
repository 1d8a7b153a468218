/**
 * A client's config file as text: the snippet that holds only moor's entry,
 * and merging that entry into the file a client already has. A merge keeps
 * every other entry, leaves the old file as `<file>.bak`, and refuses (with
 * the line) a file that does not parse: rewriting it would lose what it meant.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml, stringify as stringifyToml, TomlError } from 'smol-toml';
import { MoorError } from '../../errors.js';
import type { ClientConfig } from './clients.js';

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's content that holds moor's entry alone. */
export function snippetOf(config: ClientConfig): string {
  const [section, name] = config.entryPath;
  const document = { [section]: { [name]: config.entry } };
  return config.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : stringifyToml(document);
}

export type WriteOutcome =
  | { readonly kind: 'created' }
  | { readonly kind: 'merged'; readonly backup: string };

/** Writes moor's entry into `config.file`, creating it (and its folder) when absent. */
export function writeClientConfig(config: ClientConfig): WriteOutcome {
  let existing: string | undefined;
  try {
    existing = fs.readFileSync(config.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadable(config.file, error);
  }
  if (existing === undefined || existing.trim() === '') {
    fs.mkdirSync(path.dirname(config.file), { recursive: true });
    replaceFile(config.file, snippetOf(config));
    return { kind: 'created' };
  }
  const merged = config.format === 'json' ? mergeJson(config, existing) : mergeToml(config, existing);
  const backup = `${config.file}.bak`;
  fs.copyFileSync(config.file, backup);
  replaceFile(config.file, merged);
  return { kind: 'merged', backup };
}

function mergeJson(config: ClientConfig, text: string): string {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw invalid(config.file, 'JSON', jsonErrorLine(text, error as Error), (error as Error).message);
  }
  if (!isTable(document)) throw invalid(config.file, 'JSON', 1, 'the top level is not an object');
  const [section, name] = config.entryPath;
  const servers = document[section] ?? {};
  if (!isTable(servers)) throw invalid(config.file, 'JSON', undefined, `"${section}" is not an object`);
  document[section] = { ...servers, [name]: config.entry };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The line of a JSON.parse error: node 20 says "at position N", newer ones "(line L column C)". */
function jsonErrorLine(text: string, error: Error): number | undefined {
  const line = /line (\d+)/.exec(error.message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(error.message);
  if (position) return text.slice(0, Number(position[1])).split('\n').length;
  return undefined;
}

/**
 * TOML is merged as text, so the user's comments and layout survive: moor's
 * table (and its subtables) is cut out and the new one appended. The result
 * is parsed again; when moor's entry was written some other way (an inline
 * table), the whole document is re-serialised instead.
 */
function mergeToml(config: ClientConfig, text: string): string {
  let document: Table;
  try {
    document = parseToml(text) as Table;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    throw invalid(config.file, 'TOML', line, ((error as Error).message.split('\n')[0] ?? '').trim());
  }
  const [section, name] = config.entryPath;
  const header = `${section}.${name}`;
  const kept: string[] = [];
  let inMoorTable = false;
  for (const line of text.split('\n')) {
    const table = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (table) {
      const key = (table[1] ?? '').replaceAll(/\s*\.\s*/g, '.').replaceAll('"', '');
      inMoorTable = key === header || key.startsWith(`${header}.`);
    }
    if (!inMoorTable) kept.push(line);
  }
  const base = kept.join('\n').replace(/\n*$/, '\n');
  const appended = `${base}\n${snippetOf(config)}`;
  try {
    const check = parseToml(appended) as Table;
    const entry = (check[section] as Table | undefined)?.[name];
    if (JSON.stringify(entry) === JSON.stringify(config.entry)) return appended;
  } catch {
    // moor's entry was not a plain table of its own: fall through
  }
  const servers = isTable(document[section]) ? document[section] : {};
  return stringifyToml({ ...document, [section]: { ...servers, [name]: config.entry } });
}

function replaceFile(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode: fileMode(file) });
  fs.renameSync(tmp, file);
}

/** A merged file keeps its permissions; a new one is the user's default. */
function fileMode(file: string): number {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return 0o644;
  }
}

function invalid(file: string, format: string, line: number | undefined, why: string): MoorError {
  const where = line === undefined ? file : `${file}:${line}`;
  return new MoorError(
    'CONFIG_INVALID',
    `${where} is not valid ${format} (${why}); moor left it untouched. Fix it, or print the snippet without --write and add it by hand`,
  );
}

function unreadable(file: string, error: unknown): MoorError {
  return new MoorError('CONFIG_INVALID', `cannot read ${file}: ${(error as Error).message}`);
}
