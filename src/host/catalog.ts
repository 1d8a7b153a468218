/**
 * The catalog: every pack's definitions turned into wire shapes once, at start.
 * tools/list is served from here unchanged on every era and every request, in
 * lexicographic order (the 2026-07-28 revision asks for a deterministic order;
 * the SDK's own registry would put integer-like names first).
 */
import type { ListResourceTemplatesResult, Prompt, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MoorError } from '../errors.js';
import { EventRouter } from './events/router.js';
import type { Pack, PromptDefinition, ResourceFamily, ToolDefinition } from './pack.js';
import { SkillShelf } from './skills.js';

export interface CatalogTool {
  readonly pack: Pack<unknown>;
  readonly definition: ToolDefinition<unknown>;
  readonly wire: Tool;
  /** The host's `workspace` argument was added to this tool's input schema (see CatalogOptions). */
  readonly takesWorkspace: boolean;
}

/** Told the outcome and handler time of every tools/call (metrics); `tool` is as the request named it. */
export type ToolCallObserver = (tool: string, outcome: 'ok' | 'error' | 'cancelled', seconds: number) => void;

export interface CatalogOptions {
  /**
   * Give every tool of a workspace-scoped pack an optional `workspace`
   * argument naming a connected workspace (the host resolves it, the pack
   * never sees it). On wherever the workspace tools are served.
   */
  readonly workspaceArgument?: boolean;
  /**
   * The router its change events go through, when it must exist before the
   * catalog does (rooms and the task feed are composed before the packs
   * that need them). Default: a router of its own.
   */
  readonly events?: EventRouter;
}

/** The name of the host-level argument that picks a connected workspace for one call. */
export const WORKSPACE_ARGUMENT = 'workspace';

const WORKSPACE_ARGUMENT_SCHEMA = {
  type: 'string',
  description:
    'A connected workspace (absolute root path, active or parked) to run this call in; default: the active workspace.',
} as const;

export interface CatalogResourceFamily {
  readonly pack: Pack<unknown>;
  readonly family: ResourceFamily<unknown>;
}

export interface CatalogPrompt {
  readonly pack: Pack<unknown>;
  readonly definition: PromptDefinition<unknown>;
  readonly wire: Prompt;
}

export class Catalog {
  readonly tools: Tool[];
  /** tools/list for a caller whose active workspace allows no writes: `tools` without the write tools. */
  readonly readOnlyTools: Tool[];
  /** Names of the tools listed only where writes are allowed. */
  readonly writeToolNames: readonly string[];
  /** prompts/list, in lexicographic order like tools. */
  readonly prompts: Prompt[];
  readonly resourceTemplates: ListResourceTemplatesResult['resourceTemplates'];
  readonly resourceFamilies: readonly CatalogResourceFamily[];
  readonly instructions: string;
  /** The packs' skills (skills/list, skills/get); their files are read through resourceFamilies. */
  readonly skills: SkillShelf;
  /**
   * True when every tool is a plain structured tool (declares an output
   * schema and answers `{ structured, text }`): such a catalog may be served
   * by the HTTP lean path. Tools that shape their own results may also log,
   * ask for input or stream, which only the SDK path carries.
   */
  readonly leanSafe: boolean;
  /**
   * The process's change events (list changed, resource updated), routed by
   * room, and task status changes, routed by owner: packs publish through
   * their room's announcer or HostContext; listen streams and 2025
   * connections subscribe for the rooms their caller's scope holds.
   */
  readonly events: EventRouter;
  /** Told every tools/call's outcome (the daemon's metrics); unset, calls are not observed. */
  toolCallObserver: ToolCallObserver | undefined;
  readonly #byName: ReadonlyMap<string, CatalogTool>;
  readonly #prompts: ReadonlyMap<string, CatalogPrompt>;

  constructor(packs: readonly Pack<unknown>[], preamble: string, options: CatalogOptions = {}) {
    const entries: CatalogTool[] = [];
    for (const pack of packs) {
      const workspaceScoped =
        options.workspaceArgument === true && (pack.scope ?? 'workspace') === 'workspace';
      for (const definition of pack.tools) {
        const wire = toWireTool(definition);
        // A verbatim schema is the pack's to send as written.
        const takesWorkspace =
          workspaceScoped && definition.inputJsonSchema === undefined && addWorkspaceArgument(wire);
        entries.push({ pack, definition, wire, takesWorkspace });
      }
    }
    entries.sort((a, b) => (a.wire.name < b.wire.name ? -1 : a.wire.name > b.wire.name ? 1 : 0));
    const byName = new Map<string, CatalogTool>();
    for (const entry of entries) {
      if (byName.has(entry.wire.name))
        throw new MoorError('CONFLICT', `Two packs define the tool ${entry.wire.name}`);
      byName.set(entry.wire.name, entry);
    }
    this.#byName = byName;
    this.tools = entries.map((e) => e.wire);
    this.readOnlyTools = entries.filter((e) => e.definition.writes !== true).map((e) => e.wire);
    this.writeToolNames = entries.filter((e) => e.definition.writes === true).map((e) => e.wire.name);
    this.leanSafe = entries.every((e) => e.definition.output !== undefined);
    this.skills = new SkillShelf(packs);
    this.resourceFamilies = [
      ...packs.flatMap((pack) => pack.resources.map((family) => ({ pack, family }))),
      ...this.skills.families,
    ];
    this.resourceTemplates = this.resourceFamilies.flatMap(({ family }) =>
      family.uriTemplate === undefined
        ? []
        : [
            {
              uriTemplate: family.uriTemplate,
              name: family.name,
              title: family.title,
              description: family.description,
              mimeType: family.mimeType,
            },
          ],
    );
    const prompts = new Map<string, CatalogPrompt>();
    for (const pack of packs) {
      for (const definition of pack.prompts ?? []) {
        if (prompts.has(definition.name))
          throw new MoorError('CONFLICT', `Two packs define the prompt ${definition.name}`);
        prompts.set(definition.name, { pack, definition, wire: toWirePrompt(definition) });
      }
    }
    this.#prompts = new Map([...prompts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    this.prompts = [...this.#prompts.values()].map((p) => p.wire);
    this.instructions = [preamble, ...packs.map((p) => p.instructions)].join('\n\n');
    this.events = options.events ?? new EventRouter();
  }

  prompt(name: string): CatalogPrompt | undefined {
    return this.#prompts.get(name);
  }

  tool(name: string): CatalogTool | undefined {
    return this.#byName.get(name);
  }

  familyFor(uri: string): CatalogResourceFamily | undefined {
    return this.resourceFamilies.find(({ family }) => family.owns(uri));
  }
}

/**
 * Adds the optional `workspace` property to an object input schema; false
 * (the schema left alone) when the tool declares a `workspace` of its own or
 * its schema is not a plain object schema.
 */
function addWorkspaceArgument(wire: Tool): boolean {
  const schema = wire.inputSchema as { type?: unknown; properties?: Record<string, unknown> };
  if (schema.type !== 'object') return false;
  const properties = schema.properties ?? {};
  if (WORKSPACE_ARGUMENT in properties) return false;
  schema.properties = { ...properties, [WORKSPACE_ARGUMENT]: { ...WORKSPACE_ARGUMENT_SCHEMA } };
  return true;
}

function toWireTool(definition: ToolDefinition<unknown>): Tool {
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: (definition.inputJsonSchema ??
      jsonSchemaOf(definition.input, 'input')) as Tool['inputSchema'],
    ...(definition.output === undefined
      ? {}
      : { outputSchema: jsonSchemaOf(definition.output, 'output') as Tool['outputSchema'] }),
    annotations: definition.annotations,
  };
}

/** A prompt's arguments from its zod object: name, `.describe()` text, required unless optional. */
function toWirePrompt(definition: PromptDefinition<unknown>): Prompt {
  const prompt: Prompt = { name: definition.name, description: definition.description };
  if (definition.title !== undefined) prompt.title = definition.title;
  if (definition.args !== undefined) {
    const json = jsonSchemaOf(definition.args, 'input') as {
      properties?: Record<string, { description?: string }>;
      required?: string[];
    };
    const required = new Set(json.required ?? []);
    prompt.arguments = Object.entries(json.properties ?? {}).map(([name, property]) => ({
      name,
      ...(property.description === undefined ? {} : { description: property.description }),
      required: required.has(name),
    }));
  }
  return prompt;
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // The $schema marker is noise on the wire: MCP fixes the dialect to 2020-12.
  delete json.$schema;
  return json;
}
