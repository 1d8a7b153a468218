/**
 * The lean path's static answers (tools/list, server/discover) and the
 * serverInfo stamp of modern results. They are not re-derived at all: they
 * are taken from the SDK handler once, in the background right after start
 * (until then those requests simply take the SDK path), and replayed with
 * the request's id spliced in.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type McpHttpHandler,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import type { Catalog } from '../../host/catalog.js';
import { MODERN_PROTOCOL_VERSION } from '../../protocol/constants.js';
import { type HttpLog, isPlainObject, JSON_HEADERS, SSE_HEADERS } from '../wire.js';
import { type StaticAnswer, withoutTools } from './static-answers.js';

/** The request id of the priming requests; it must occur exactly once in each answer. */
const PRIME_ID = '__moor_lean_prime__';

export class PrimedAnswers {
  readonly #catalog: Catalog;
  readonly #answers = new Map<string, StaticAnswer>();
  /** `,"_meta":{…serverInfo…}` exactly as the SDK stamps it, or undefined when priming failed. */
  #modernMeta: string | undefined;

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  get modernMeta(): string | undefined {
    return this.#modernMeta;
  }

  /** The primed answer by key (`modern tools/list`, `legacy tools/list read-only`, …), if priming got it. */
  get(key: string): StaticAnswer | undefined {
    return this.#answers.get(key);
  }

  /**
   * Takes the static answers (and the serverInfo stamp) from the SDK handler
   * itself, once. Runs in the background at start: the first SDK requests
   * cost ~100 ms of cold start that the daemon should not wait for.
   */
  async prime(sdk: McpHttpHandler, log: HttpLog, shouldLog: () => boolean): Promise<void> {
    const modernMetaEnvelope = {
      [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
    const primes: Array<{ key: string; headers: Record<string, string>; body: unknown }> = [
      {
        key: 'modern tools/list',
        headers: { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'tools/list' },
        body: { jsonrpc: '2.0', id: PRIME_ID, method: 'tools/list', params: { _meta: modernMetaEnvelope } },
      },
      {
        key: 'modern server/discover',
        headers: { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'server/discover' },
        body: {
          jsonrpc: '2.0',
          id: PRIME_ID,
          method: 'server/discover',
          params: { _meta: modernMetaEnvelope },
        },
      },
      {
        key: 'legacy tools/list',
        headers: { 'mcp-protocol-version': '2025-11-25' },
        body: { jsonrpc: '2.0', id: PRIME_ID, method: 'tools/list' },
      },
    ];
    for (const prime of primes) {
      try {
        const response = await sdk.fetch(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...prime.headers,
            },
            body: JSON.stringify(prime.body),
          }),
        );
        const text = await response.text();
        const marker = JSON.stringify(PRIME_ID);
        const at = text.indexOf(marker);
        const contentType = response.headers.get('content-type');
        if (response.status !== 200 || at < 0 || text.indexOf(marker, at + 1) >= 0 || contentType === null) {
          throw new Error(`unexpected answer (HTTP ${response.status}): ${text.slice(0, 200)}`);
        }
        this.#answers.set(prime.key, {
          status: 200,
          headers: contentType === 'text/event-stream' ? SSE_HEADERS : JSON_HEADERS,
          before: text.slice(0, at),
          after: text.slice(at + marker.length),
        });
        if (prime.key === 'modern server/discover') {
          const meta = (JSON.parse(text) as { result?: { _meta?: unknown } }).result?._meta;
          if (isPlainObject(meta)) this.#modernMeta = `,"_meta":${JSON.stringify(meta)}`;
        }
      } catch (error) {
        if (!shouldLog()) return;
        log('warn', `http lean path: ${prime.key} stays on the SDK path`, {
          error: (error as Error)?.message ?? String(error),
        });
      }
    }
    this.#primeReadOnlyLists();
  }

  /** tools/list varies by caller when the catalog has write tools: the read-only variant, or none (SDK path). */
  #primeReadOnlyLists(): void {
    const writeTools = new Set(this.#catalog.writeToolNames);
    if (writeTools.size === 0) return;
    for (const key of ['modern tools/list', 'legacy tools/list']) {
      const full = this.#answers.get(key);
      const variant = full && withoutTools(full, JSON.stringify(PRIME_ID), writeTools);
      if (variant === undefined) this.#answers.delete(key);
      else this.#answers.set(`${key} read-only`, variant);
    }
  }
}
