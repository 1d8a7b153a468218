/**
 * Cheap checks of a JSON-RPC frame's shape that never recurse: a JSON value
 * can nest as deep as its bytes allow (JSON.parse copes), but any code that
 * walks it recursively (JSON.stringify, a template string, a schema) runs
 * out of stack. Every hop bounds nesting with one linear byte scan before
 * anything walks a message, and accepts only strings and numbers as ids.
 * Node built-ins only: the proxy uses these too.
 */

/** Deeper nesting than this is refused: no real MCP message comes close, and every walk below it is safe. */
export const MAX_JSON_DEPTH = 512;

/** One line may not exceed this; a longer one is a client bug or an attack: it is answered and skipped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How many leading bytes of an oversized line are searched for its id. */
export const ID_SCAN_BYTES = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export type JsonRpcId = string | number;

/** A usable JSON-RPC request id: a string or a finite number (null and everything else are not). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Whether the JSON text in `bytes` opens more than `limit` arrays or objects
 * at once. One pass, no allocation; brackets inside strings do not count.
 * UTF-8 never uses these ASCII bytes inside a multi-byte character, so the
 * scan is exact on raw bytes.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  // Deeper than `limit` takes more than `limit` bytes of brackets: an ordinary request is never scanned.
  if (bytes.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
  }
  return false;
}

const ID_KEY = Buffer.from('"id"');
const ID_VALUE = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/;

/**
 * The id of a frame too large to parse, read from its first ID_SCAN_BYTES:
 * the top-level `"id"` member when its value is a string or number there.
 * null when none is found (the error then goes out with id null).
 */
export function idFromHead(bytes: Uint8Array): JsonRpcId | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, ID_SCAN_BYTES));
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const byte = head[i];
    if (byte === QUOTE) {
      if (depth === 1 && head.subarray(i, i + ID_KEY.length).equals(ID_KEY)) {
        const match = ID_VALUE.exec(head.toString('utf8', i + ID_KEY.length));
        if (match) return parseId(match[1] as string);
      }
      // Skip the string: its brackets are not structure.
      for (i++; i < head.length && head[i] !== QUOTE; i++) if (head[i] === BACKSLASH) i++;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) depth++;
    else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
  }
  return null;
}

function parseId(text: string): JsonRpcId | null {
  try {
    const id: unknown = JSON.parse(text);
    return isJsonRpcId(id) ? id : null;
  } catch {
    return null;
  }
}

/** The message of the error answering a line over `limit` bytes. */
export function tooLargeMessage(limit: number): string {
  return `Invalid Request: a message exceeded ${limit} bytes; the rest of that line was discarded`;
}

/** The message of the error answering a frame nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_MESSAGE = `Invalid Request: the message nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`;

/** The message of the error answering a request whose id is neither a string nor a number. */
export const BAD_ID_MESSAGE = 'Invalid Request: a request id must be a string or a number';
