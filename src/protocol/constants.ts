/**
 * Protocol facts moor relies on that the SDK does not export by name.
 */
/**
 * A result's cache hint (2026-07-28), the shape the SDK's `CacheHint` has:
 * written here so that protocol/ stays free of the SDK (the proxy imports it).
 */
export interface CacheHint {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/** The stateless revision; the SDK exports no constant for it. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The catalog (tools, templates, prompts, discover) is fixed for the life of a process. */
export const CATALOG_CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: 'public' };

/**
 * tools/list where it varies by caller (write tools listed only for sessions
 * whose active workspace allows writes): no shared cache may hold it.
 */
export const CALLER_CATALOG_CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: 'private' };

/** Anything derived from a corpus may change at any moment and may be private. */
export const CORPUS_CACHE_HINT: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/** The durable-tasks extension's id, in client capabilities and the server's own. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
