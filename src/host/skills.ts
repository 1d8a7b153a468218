/**
 * The skills extension (`io.modelcontextprotocol/skills`), pack-agnostic:
 * every pack's SkillDefinitions become skill entries once, at start — a
 * `SKILL.md` written from the definition, each file's size and SHA-256 digest
 * — served by `skills/list` and `skills/get` on each instance. The files are
 * read with ordinary `resources/read` through a resource family that lists
 * nothing, so skills stay out of tools/list and resources/list.
 *
 * The SDK's own SkillsExtension attaches to an McpServer; moor's host runs
 * the low-level Server, so the two methods are registered here instead.
 */
import { createHash } from 'node:crypto';
import { type CacheHint, ProtocolError, type Server } from '@modelcontextprotocol/server';
import {
  type GetSkillResult,
  type ListSkillsResult,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  type Skill,
} from '@modelcontextprotocol/server/ext/skills';
import { z } from 'zod';
import { errorSpec, MoorError } from '../errors.js';
import type { Pack, ResourceContent, ResourceFamily, SkillDefinition } from './pack.js';

export { SKILLS_EXTENSION_ID };

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SCHEME = 'skill://';

interface SkillFile {
  readonly text: string;
  readonly mimeType: string;
}

export interface PackSkillFamily {
  readonly pack: Pack<unknown>;
  readonly family: ResourceFamily<unknown>;
}

/** Every pack's skills as wire entries, and the files behind them. */
export class SkillShelf {
  /** Sorted by URI: what skills/list answers. */
  readonly entries: readonly Skill[];
  /** One family per pack with skills, for resources/read. */
  readonly families: readonly PackSkillFamily[];
  readonly #byUri: ReadonlyMap<string, Skill>;
  readonly #files: ReadonlyMap<string, SkillFile>;

  constructor(packs: readonly Pack<unknown>[]) {
    const entries: Skill[] = [];
    const files = new Map<string, SkillFile>();
    const families: PackSkillFamily[] = [];
    for (const pack of packs) {
      if (pack.skills === undefined || pack.skills.length === 0) continue;
      for (const definition of pack.skills) entries.push(buildEntry(pack.name, definition, files));
      const prefix = `${SCHEME}${pack.name}/`;
      families.push({ pack, family: skillFamily(pack.name, prefix, files) });
    }
    entries.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    const byUri = new Map<string, Skill>();
    for (const entry of entries) {
      if (byUri.has(entry.uri)) throw new MoorError('CONFLICT', `Two skills are served at ${entry.uri}`);
      byUri.set(entry.uri, entry);
    }
    this.entries = entries;
    this.families = families;
    this.#byUri = byUri;
    this.#files = files;
  }

  get size(): number {
    return this.entries.length;
  }

  get(uri: string): Skill | undefined {
    return this.#byUri.get(uri);
  }

  read(uri: string): SkillFile | undefined {
    return this.#files.get(uri);
  }
}

function buildEntry(packName: string, definition: SkillDefinition, files: Map<string, SkillFile>): Skill {
  if (!SKILL_NAME.test(definition.name) || definition.name.length > 64)
    throw new MoorError(
      'CONFLICT',
      `Skill name "${definition.name}" must be 1-64 lowercase letters, digits and single hyphens`,
    );
  const description = definition.description.trim();
  if (description === '' || [...description].length > 1024)
    throw new MoorError('CONFLICT', `Skill "${definition.name}" needs a description of 1-1024 characters`);
  const root = `${SCHEME}${packName}/${definition.name}/`;
  // JSON strings are valid YAML double-quoted scalars, so the frontmatter reads back exactly.
  const manifest = `---\nname: ${definition.name}\ndescription: ${JSON.stringify(description)}\n---\n\n${definition.body.trim()}\n`;
  const own: Array<[string, string]> = [['SKILL.md', manifest], ...Object.entries(definition.files ?? {})];
  const resources = own.map(([relative, text]) => {
    const uri = `${root}${relative}`;
    files.set(uri, { text, mimeType: /\.(?:md|markdown)$/i.test(relative) ? 'text/markdown' : 'text/plain' });
    const bytes = Buffer.from(text, 'utf8');
    return {
      uri,
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      size: bytes.byteLength,
    };
  });
  resources.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { uri: `${root}SKILL.md`, frontmatter: { name: definition.name, description }, resources };
}

/** The pack's skill files as a resource family: readable by URI, never listed. */
function skillFamily(
  packName: string,
  prefix: string,
  files: ReadonlyMap<string, SkillFile>,
): ResourceFamily<unknown> {
  return {
    name: `${packName}-skills`,
    title: `${packName} skills`,
    description: 'Files of the skills this pack serves (skills/list, skills/get).',
    mimeType: 'text/markdown',
    owns: (uri) => uri.startsWith(prefix),
    list: () => [],
    read: (_state, uri): ResourceContent | undefined => {
      const file = files.get(uri);
      return file === undefined ? undefined : { uri, mimeType: file.mimeType, text: file.text };
    },
  };
}

const listParams = z.looseObject({ cursor: z.string().optional() });
const getParams = z.looseObject({ uri: z.string() });

/**
 * Registers skills/list and skills/get on one instance. `cache`: the hint
 * 2026-07-28 results carry (ttlMs, cacheScope); undefined on a 2025 connection,
 * whose results have no such fields.
 */
export function installSkills(server: Server, shelf: SkillShelf, cache: CacheHint | undefined): void {
  const hint = cache === undefined ? {} : { ttlMs: cache.ttlMs, cacheScope: cache.cacheScope };
  server.setRequestHandler(SKILLS_LIST_METHOD, { params: listParams }, (params) => {
    // Every skill fits on one page, so no cursor is ever handed out.
    if (params.cursor !== undefined)
      throw new ProtocolError(
        errorSpec('INVALID_CURSOR').jsonRpc,
        'Invalid cursor: skills/list has a single page; omit the cursor.',
        {
          cursor: params.cursor,
        },
      );
    return { skills: [...shelf.entries], ...hint } as ListSkillsResult;
  });
  server.setRequestHandler(SKILLS_GET_METHOD, { params: getParams }, (params) => {
    const skill = shelf.get(params.uri);
    if (skill === undefined)
      throw new ProtocolError(
        errorSpec('SKILL_NOT_FOUND').jsonRpc,
        `No skill is served at ${params.uri}; skills/list names every one.`,
        {
          uri: params.uri,
        },
      );
    return { skill, ...hint } as GetSkillResult;
  });
}
