/**
 * What the proxy learns from the daemon's tool lists: which tools declare
 * readOnlyHint (their interrupted calls may be sent again) and a hash of the
 * full list (a restarted daemon serving other tools means list_changed).
 */
import { createHash } from 'node:crypto';

export function hashTools(tools: unknown): string {
  return createHash('sha256').update(JSON.stringify(tools)).digest('hex');
}

export class ToolKnowledge {
  readonly #readOnlyByName = new Map<string, boolean>();
  #listHash: string | undefined;
  /** Called with the hash of each whole tool list the client itself fetched. */
  onClientList: ((hash: string) => void) | undefined;

  /** The hash of the last complete (unpaged) tool list, once one was seen. */
  get listHash(): string | undefined {
    return this.#listHash;
  }

  /** true / false, or undefined while the tool's annotations are not known. */
  isReadOnly(name: string): boolean | undefined {
    return this.#readOnlyByName.get(name);
  }

  /** Learns from a tools/list result; `requestLine` is the request it answers, when the client sent it. */
  learn(result: Record<string, unknown>, requestLine?: Buffer): void {
    const tools = result.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Array<{ name?: unknown; annotations?: { readOnlyHint?: unknown } }>) {
      if (typeof tool.name === 'string')
        this.#readOnlyByName.set(tool.name, tool.annotations?.readOnlyHint === true);
    }
    // One page is not the list: only a whole list may set the hash.
    const paged = requestLine !== undefined && /"cursor"\s*:/.test(requestLine.toString('utf8'));
    if (paged || result.nextCursor !== undefined) return;
    this.#listHash = hashTools(tools);
    if (requestLine !== undefined) this.onClientList?.(this.#listHash);
  }
}
