/**
 * The last answers of pure tools (ToolDefinition.pure), per workspace and
 * pack state version: a repeated get_decision on an unchanged corpus is a
 * map lookup instead of resolving, rendering and reading the body again.
 *
 * An entry is only ever served for the exact version it was computed at;
 * a new version empties the workspace's entries at its first lookup. Only
 * answers the handler returned are kept (an unexpected failure is never
 * replayed). The results are shared between calls, so whoever is given one
 * must treat it as frozen: the lean HTTP path only serializes them.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

/** Answers kept per workspace: far above an agent's working set, small against a corpus's size. */
export const MEMO_ENTRIES_PER_WORKSPACE = 512;
/** Arguments longer than this (as JSON) are not worth a key: such calls are not repeated verbatim. */
export const MEMO_MAX_KEY_LENGTH = 2048;

interface VersionEntries {
  version: string;
  readonly answers: Map<string, CallToolResult>;
}

export class ResultMemo {
  /** Keyed by the workspace (its pack states) object: a closed room's entries go with it. */
  readonly #byWorkspace = new WeakMap<object, VersionEntries>();
  /** Every result ever kept: what a caller may cache more about (its serialized bytes). */
  readonly #kept = new WeakSet<CallToolResult>();
  #hits = 0;
  #misses = 0;

  /** Lookups answered from the memo, and those that were not (tests and the bench). */
  get stats(): { hits: number; misses: number } {
    return { hits: this.#hits, misses: this.#misses };
  }

  /** The key of a call, or undefined when it is not worth keeping. */
  keyOf(tool: string, args: Readonly<Record<string, unknown>>): string | undefined {
    const key = `${tool}\u0000${JSON.stringify(args)}`;
    return key.length > MEMO_MAX_KEY_LENGTH ? undefined : key;
  }

  get(workspace: object, version: string, key: string): CallToolResult | undefined {
    const entries = this.#entries(workspace, version);
    const hit = entries.answers.get(key);
    if (hit === undefined) this.#misses += 1;
    else this.#hits += 1;
    return hit;
  }

  /** Whether `result` is one the memo kept (and so may be handed out again, unchanged). */
  holds(result: CallToolResult): boolean {
    return this.#kept.has(result);
  }

  put(workspace: object, version: string, key: string, result: CallToolResult): void {
    this.#kept.add(result);
    const entries = this.#entries(workspace, version);
    entries.answers.set(key, result);
    if (entries.answers.size > MEMO_ENTRIES_PER_WORKSPACE) {
      // Insertion order: the oldest answer goes first.
      const oldest = entries.answers.keys().next().value;
      if (oldest !== undefined) entries.answers.delete(oldest);
    }
  }

  #entries(workspace: object, version: string): VersionEntries {
    let entries = this.#byWorkspace.get(workspace);
    if (entries === undefined) {
      entries = { version, answers: new Map() };
      this.#byWorkspace.set(workspace, entries);
    } else if (entries.version !== version) {
      entries.version = version;
      entries.answers.clear();
    }
    return entries;
  }
}
