/**
 * The catalog: every pack's definitions turned into wire shapes once, at start.
 * tools/list is served from here unchanged on every era and every request, in
 * lexicographic order (the 2026-07-28 revision asks for a deterministic order;
 * the SDK's own registry would put integer-like names first).
 */
import type { ListResourceTemplatesResult, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Pack, ResourceFamily, ToolDefinition } from './pack.js';

export interface CatalogTool {
  readonly pack: Pack<unknown>;
  readonly definition: ToolDefinition<unknown>;
  readonly wire: Tool;
}

export interface CatalogResourceFamily {
  readonly pack: Pack<unknown>;
  readonly family: ResourceFamily<unknown>;
}

export class Catalog {
  readonly tools: Tool[];
  readonly resourceTemplates: ListResourceTemplatesResult['resourceTemplates'];
  readonly resourceFamilies: readonly CatalogResourceFamily[];
  readonly instructions: string;
  readonly #byName: ReadonlyMap<string, CatalogTool>;

  constructor(packs: readonly Pack<unknown>[], preamble: string) {
    const entries: CatalogTool[] = [];
    for (const pack of packs) {
      for (const definition of pack.tools) entries.push({ pack, definition, wire: toWireTool(definition) });
    }
    entries.sort((a, b) => (a.wire.name < b.wire.name ? -1 : a.wire.name > b.wire.name ? 1 : 0));
    const byName = new Map<string, CatalogTool>();
    for (const entry of entries) {
      if (byName.has(entry.wire.name)) throw new Error(`Two packs define the tool ${entry.wire.name}`);
      byName.set(entry.wire.name, entry);
    }
    this.#byName = byName;
    this.tools = entries.map((e) => e.wire);
    this.resourceFamilies = packs.flatMap((pack) => pack.resources.map((family) => ({ pack, family })));
    this.resourceTemplates = this.resourceFamilies.map(({ family }) => ({
      uriTemplate: family.uriTemplate,
      name: family.name,
      title: family.title,
      description: family.description,
      mimeType: family.mimeType,
    }));
    this.instructions = [preamble, ...packs.map((p) => p.instructions)].join('\n\n');
  }

  tool(name: string): CatalogTool | undefined {
    return this.#byName.get(name);
  }

  familyFor(uri: string): CatalogResourceFamily | undefined {
    return this.resourceFamilies.find(({ family }) => family.owns(uri));
  }
}

function toWireTool(definition: ToolDefinition<unknown>): Tool {
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonSchemaOf(definition.input, 'input') as Tool['inputSchema'],
    outputSchema: jsonSchemaOf(definition.output, 'output') as Tool['outputSchema'],
    annotations: definition.annotations,
  };
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
