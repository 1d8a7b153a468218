/**
 * resources/list, resources/templates/list and resources/read over the
 * catalog's resource families. Listing is paginated with an opaque cursor;
 * reading an unknown URI answers -32602 with `data.uri` (the 2026-07-28 rule,
 * the answer the SDK's ResourceNotFoundError gives on both eras).
 */
import type { ListResourcesResult, ProtocolError, ReadResourceResult } from '@modelcontextprotocol/server';
import type { Binding } from './binding.js';
import type { Catalog } from './catalog.js';
import type { ResourceEntry } from './pack.js';
import { protocolError } from './protocol-error.js';

export const RESOURCE_PAGE_SIZE = 100;

export function listResources(
  catalog: Catalog,
  binding: Binding,
  cursor: string | undefined,
): ListResourcesResult {
  const all: ResourceEntry[] = [];
  for (const { pack, family } of catalog.resourceFamilies) all.push(...family.list(binding.stateOf(pack)));
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  if (offset > all.length) throw invalidCursor(cursor);
  const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
  const next = offset + page.length;
  const result: ListResourcesResult = { resources: page.map((entry) => ({ ...entry })) };
  if (next < all.length) result.nextCursor = encodeCursor(next);
  return result;
}

/**
 * Opens the binding's states for every resource family: a client that
 * subscribes to resources before reading any must still hear of their
 * changes, and a pack only watches its workspace once its state is open.
 */
export function openResourceStates(catalog: Catalog, binding: Binding): void {
  for (const { pack } of catalog.resourceFamilies) binding.stateOf(pack);
}

export function readResource(catalog: Catalog, binding: Binding, uri: string): ReadResourceResult {
  const owner = catalog.familyFor(uri);
  const content = owner?.family.read(binding.stateOf(owner.pack), uri);
  if (!content) throw protocolError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });
  return {
    contents: [
      'text' in content
        ? { uri: content.uri, mimeType: content.mimeType, text: content.text }
        : { uri: content.uri, mimeType: content.mimeType, blob: content.blob },
    ],
  };
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ v: 1, o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      v?: unknown;
      o?: unknown;
    };
    if (value.v === 1 && typeof value.o === 'number' && Number.isSafeInteger(value.o) && value.o >= 0)
      return value.o;
  } catch {
    // fall through: any undecodable cursor is the same client mistake
  }
  throw invalidCursor(cursor);
}

function invalidCursor(cursor: string | undefined): ProtocolError {
  return protocolError(
    'INVALID_CURSOR',
    'Invalid cursor: pass back the nextCursor of a previous resources/list answer, or omit it to start over.',
    { cursor },
  );
}
