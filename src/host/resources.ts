/**
 * resources/list, resources/templates/list and resources/read over the
 * catalog's resource families. Listing is paginated with an opaque cursor;
 * reading an unknown URI answers -32602 with `data.uri` (the 2026-07-28 rule,
 * the answer the SDK's ResourceNotFoundError gives on both eras).
 */
import type { ListResourcesResult, ProtocolError, ReadResourceResult } from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import type { CallerScope, CallWorkspace } from './call-scope.js';
import type { Catalog } from './catalog.js';
import type { ResourceEntry } from './pack.js';
import { protocolError } from './protocol-error.js';

export const RESOURCE_PAGE_SIZE = 100;

const WORKSPACE_QUERY = '?workspace=';

/** A parked workspace's form of a pack's resource URI. */
export function parkedResourceUri(uri: string, root: string): string {
  return `${uri}${WORKSPACE_QUERY}${encodeURIComponent(root)}`;
}

/** The pack's URI and the workspace a `?workspace=` suffix names (undefined: the active one). */
export function splitResourceUri(uri: string): { uri: string; workspace: string | undefined } {
  const at = uri.lastIndexOf(WORKSPACE_QUERY);
  if (at < 0) return { uri, workspace: undefined };
  try {
    return { uri: uri.slice(0, at), workspace: decodeURIComponent(uri.slice(at + WORKSPACE_QUERY.length)) };
  } catch {
    return { uri, workspace: undefined };
  }
}

function entriesOf(catalog: Catalog, workspace: CallWorkspace): ResourceEntry[] {
  const entries: ResourceEntry[] = [];
  for (const { pack, family } of catalog.resourceFamilies) {
    if ((pack.scope ?? 'workspace') === 'workspace') entries.push(...family.list(workspace.stateOf(pack)));
  }
  return entries;
}

/** The active workspace's resources, then each parked one's (with its `?workspace=` URIs). */
async function allEntries(catalog: Catalog, scope: CallerScope): Promise<ResourceEntry[]> {
  let all: ResourceEntry[] = [];
  try {
    all = entriesOf(catalog, await scope.select(undefined));
  } catch (error) {
    // No active workspace: the parked ones are still listed.
    if (!(error instanceof MoorError)) throw error;
  }
  for (const parked of await scope.others()) {
    for (const entry of entriesOf(catalog, parked.workspace))
      all.push({ ...entry, uri: parkedResourceUri(entry.uri, parked.root) });
  }
  return all;
}

export async function listResources(
  catalog: Catalog,
  scope: CallerScope,
  cursor: string | undefined,
): Promise<ListResourcesResult> {
  const all = await allEntries(catalog, scope);
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  if (offset > all.length) throw invalidCursor(cursor);
  const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
  const next = offset + page.length;
  const result: ListResourcesResult = { resources: page.map((entry) => ({ ...entry })) };
  if (next < all.length) result.nextCursor = encodeCursor(next);
  return result;
}

/**
 * Opens the states of the caller's active workspace for every resource
 * family: a client that subscribes to resources before reading any must
 * still hear of their changes, and a pack only watches its workspace once its
 * state is open. A session with no usable active workspace has nothing to open.
 */
export async function openResourceStates(catalog: Catalog, scope: CallerScope): Promise<void> {
  let selected: CallWorkspace;
  try {
    selected = await scope.select(undefined);
  } catch {
    return;
  }
  for (const { pack } of catalog.resourceFamilies) selected.stateOf(pack);
}

export async function readResource(
  catalog: Catalog,
  scope: CallerScope,
  uri: string,
): Promise<ReadResourceResult> {
  const target = scope.namesWorkspaces ? splitResourceUri(uri) : { uri, workspace: undefined };
  const owner = catalog.familyFor(target.uri);
  let selected: CallWorkspace;
  try {
    selected = await scope.select(target.workspace);
  } catch (error) {
    if (!(error instanceof MoorError)) throw error;
    throw protocolError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}. ${error.message}`, { uri });
  }
  const content = owner?.family.read(selected.stateOf(owner.pack), target.uri);
  if (!content) throw protocolError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });
  // The answer names the resource as asked for (with its workspace suffix).
  return {
    contents: [
      'text' in content
        ? { uri, mimeType: content.mimeType, text: content.text }
        : { uri, mimeType: content.mimeType, blob: content.blob },
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

/**
 * Whether a URI can name one of the catalog's resources (what a listen
 * stream's URIs are charged for): a resource family owns it and the resource
 * exists in one of the workspaces `loaded` gives for the scope (a session's
 * scope picks its workspace per call, asynchronously, so the ones of its rooms
 * loaded now). With none given (one client in process) the URI is taken at
 * its word; with none loaded it names nothing: a made-up URI must never
 * count, and streams are opened once their workspace has loaded.
 */
export function resourceNamer(
  catalog: Catalog,
  scope: CallerScope,
  loaded?: (scope: CallerScope) => readonly CallWorkspace[],
): (uri: string) => boolean {
  return (uri) => {
    const target = scope.namesWorkspaces ? splitResourceUri(uri).uri : uri;
    const owner = catalog.familyFor(target);
    if (owner === undefined) return false;
    const exists = (where: CallWorkspace): boolean => {
      try {
        return owner.family.read(where.stateOf(owner.pack), target) !== undefined;
      } catch {
        return false;
      }
    };
    if (loaded === undefined) return true;
    return loaded(scope).some(exists);
  };
}
