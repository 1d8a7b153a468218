/**
 * Which client requests a primed answer may stand for, and under which key.
 * The daemon's answer to a handshake or a static list depends on nothing but
 * the method, the era, the legacy version asked for and (for a legacy
 * initialize) whether the client declares the tasks extension; the key names
 * exactly that. A request is keyed only when it is one the SDK would certainly
 * accept and hand to moor's handler: a narrow, well-formed shape (the
 * envelope's members, capabilities made of plain objects, no cursor, no extra
 * members). Anything else has no key and waits for the daemon, which answers
 * it as it always did. Pure: shared by the proxy and the build step that
 * records the answers (scripts/prime-answers.mjs), so both name a request alike.
 */
import { MODERN_PROTOCOL_VERSION, TASKS_EXTENSION_ID } from '../protocol/constants.js';
import type { Message } from './wire.js';

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** Static lists: the same answer for every caller of a daemon started with the default flags. */
export const PRIMED_LIST_METHODS: readonly string[] = ['tools/list', 'resources/templates/list'];
/** The modern era's handshake. */
export const PRIMED_DISCOVER = 'server/discover';

type Json = Record<string, unknown>;

function isPlain(value: unknown): value is Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function onlyKeys(value: Json, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A JSON object one level deep (primitive members only): what real clients put in a capability. */
function isFlatObject(value: unknown): value is Json {
  return isPlain(value) && Object.values(value).every(isPrimitive);
}

/** A record of flat objects (`extensions`, `experimental`). */
function isFlatRecord(value: unknown): boolean {
  return isPlain(value) && Object.values(value).every(isFlatObject);
}

/**
 * Client capabilities of a shape the SDK's ClientCapabilitiesSchema accepts
 * unchanged. `tasks` (2025 wire vocabulary) and unknown members are left to
 * the daemon.
 */
export function isPlainCapabilities(value: unknown): value is Json {
  if (!isPlain(value) || !onlyKeys(value, ['experimental', 'sampling', 'elicitation', 'roots', 'extensions']))
    return false;
  const { experimental, sampling, elicitation, roots, extensions } = value;
  if (experimental !== undefined && !isFlatRecord(experimental)) return false;
  if (extensions !== undefined && !isFlatRecord(extensions)) return false;
  if (sampling !== undefined) {
    if (!isPlain(sampling) || !onlyKeys(sampling, ['context', 'tools'])) return false;
    if (!Object.values(sampling).every(isFlatObject)) return false;
  }
  if (elicitation !== undefined) {
    if (!isPlain(elicitation) || !onlyKeys(elicitation, ['form', 'url'])) return false;
    if (!Object.values(elicitation).every(isFlatObject)) return false;
    const form = elicitation.form as Json | undefined;
    if (form?.applyDefaults !== undefined && typeof form.applyDefaults !== 'boolean') return false;
  }
  if (roots !== undefined) {
    if (!isPlain(roots) || !onlyKeys(roots, ['listChanged'])) return false;
    if (roots.listChanged !== undefined && typeof roots.listChanged !== 'boolean') return false;
  }
  return true;
}

/** clientInfo as the SDK's ImplementationSchema takes it: name and version, an optional title. */
export function isPlainClientInfo(value: unknown): boolean {
  return (
    isPlain(value) &&
    onlyKeys(value, ['name', 'version', 'title']) &&
    typeof value.name === 'string' &&
    typeof value.version === 'string' &&
    (value.title === undefined || typeof value.title === 'string')
  );
}

/** An id the SDK echoes as it was sent: a string, or a whole number JSON round-trips exactly. */
export function isPrimableId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id) && !Object.is(id, -0));
}

function declaresTasks(capabilities: Json): boolean {
  const extensions = capabilities.extensions;
  return isPlain(extensions) && TASKS_EXTENSION_ID in extensions;
}

/** The key of a legacy initialize's answer: it echoes a supported version, and advertises tasks to who declares them. */
export function initializeKey(version: string, tasks: boolean): string {
  return `legacy initialize ${version} ${tasks ? 'tasks' : 'plain'}`;
}

/** The key of a legacy static list's answer (the SDK encodes results per negotiated version). */
export function legacyListKey(method: string, version: string): string {
  return `legacy ${method} ${version}`;
}

export function modernKey(method: string): string {
  return `modern ${method}`;
}

/** The whole message is `{jsonrpc, id, method, params?}`, nothing else. */
function plainEnvelope(message: Message): boolean {
  return (
    isPlain(message) &&
    onlyKeys(message as Json, ['jsonrpc', 'id', 'method', 'params']) &&
    (message as Json).jsonrpc === '2.0' &&
    isPrimableId(message.id) &&
    (message.params === undefined || isPlain(message.params))
  );
}

/** A modern request's `_meta`: exactly the envelope, well formed, naming 2026-07-28. */
function plainModernMeta(meta: unknown): boolean {
  return (
    isPlain(meta) &&
    onlyKeys(meta, [PROTOCOL_VERSION_META, CLIENT_INFO_META, CLIENT_CAPABILITIES_META]) &&
    meta[PROTOCOL_VERSION_META] === MODERN_PROTOCOL_VERSION &&
    isPlainClientInfo(meta[CLIENT_INFO_META]) &&
    isPlainCapabilities(meta[CLIENT_CAPABILITIES_META])
  );
}

/** The primed key of a modern request (`_meta` claims a protocol version), or undefined. */
export function modernRequestKey(message: Message): string | undefined {
  if (!plainEnvelope(message) || typeof message.method !== 'string') return undefined;
  const params = message.params;
  if (params === undefined || !onlyKeys(params, ['_meta']) || !plainModernMeta(params._meta))
    return undefined;
  const method = message.method;
  return method === PRIMED_DISCOVER || PRIMED_LIST_METHODS.includes(method) ? modernKey(method) : undefined;
}

/** The primed key of a legacy initialize, or undefined. */
export function initializeRequestKey(message: Message): string | undefined {
  if (!plainEnvelope(message) || message.method !== 'initialize') return undefined;
  const params = message.params;
  if (params === undefined || !onlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo']))
    return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (
    typeof protocolVersion !== 'string' ||
    !isPlainCapabilities(capabilities) ||
    !isPlainClientInfo(clientInfo)
  )
    return undefined;
  return initializeKey(protocolVersion, declaresTasks(capabilities));
}

/** The primed key of a legacy static list on a connection whose initialize asked for `version`, or undefined. */
export function legacyListRequestKey(message: Message, version: string): string | undefined {
  if (!plainEnvelope(message) || typeof message.method !== 'string') return undefined;
  if (!PRIMED_LIST_METHODS.includes(message.method)) return undefined;
  const params = message.params;
  if (params !== undefined && Object.keys(params).length > 0) return undefined;
  return legacyListKey(message.method, version);
}
