/**
 * The lean path's proof: every request of a corpus (each hot method, success
 * and error cases, header and envelope mistakes, both eras) is sent once to
 * an endpoint with the lean path and once to one without it (`lean: false`,
 * everything through the SDK's createMcpHandler). Status, the headers that
 * carry meaning, and the body bytes must be identical. The corpus also pins
 * which requests the lean path takes, so it cannot silently stop taking the
 * hot ones (the benchmark depends on it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { killAll, removeStateDirs, startDaemon, TASKS, tempState } from '../tasks/daemon-helpers.js';
import { callOverHttp, comparable, type Recorded, script, TASK_TOOLS } from './daemon-parity.js';
import {
  base64Header,
  ENVELOPE,
  fixture,
  legacyBody,
  MODERN,
  modernBody,
  modernHeaders,
  post,
  type RawAnswer,
  type Started,
  start,
} from './helpers.js';

interface Case {
  readonly name: string;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** Which path the lean endpoint must use ('none' when refused before either path). */
  readonly route: 'lean' | 'sdk' | 'none';
}

const LEGACY = { 'mcp-protocol-version': '2025-11-25' };

function modern(
  name: string,
  id: number | string,
  method: string,
  params: Record<string, unknown>,
  route: Case['route'],
  headerName?: string,
): Case {
  return { name, body: modernBody(id, method, params), headers: modernHeaders(method, headerName), route };
}

const call = (args: Record<string, unknown>, toolName: string) => ({ name: toolName, arguments: args });

const CORPUS: readonly Case[] = [
  // --- modern, lean ---
  modern('modern tools/list', 1, 'tools/list', {}, 'lean'),
  modern('modern tools/list with a cursor', 2, 'tools/list', { cursor: 'abc' }, 'lean'),
  modern('modern server/discover', 3, 'server/discover', {}, 'lean'),
  modern('modern get_decision', 4, 'tools/call', call({ ref: '3' }, 'get_decision'), 'lean', 'get_decision'),
  modern(
    'modern get_decision by id',
    5,
    'tools/call',
    call({ ref: 'ADR-0002' }, 'get_decision'),
    'lean',
    'get_decision',
  ),
  modern(
    'modern get_decision unknown ref',
    6,
    'tools/call',
    call({ ref: '999' }, 'get_decision'),
    'lean',
    'get_decision',
  ),
  modern(
    'modern search_decisions',
    7,
    'tools/call',
    call({ query: 'storage' }, 'search_decisions'),
    'lean',
    'search_decisions',
  ),
  modern(
    'modern search_decisions invalid limit',
    8,
    'tools/call',
    call({ query: 'x', limit: -4 }, 'search_decisions'),
    'lean',
    'search_decisions',
  ),
  modern(
    'modern get_decision_context',
    9,
    'tools/call',
    call({ files: ['src/db/pool.ts', '../etc/passwd'] }, 'get_decision_context'),
    'lean',
    'get_decision_context',
  ),
  modern('modern list_superseded', 10, 'tools/call', call({}, 'list_superseded'), 'lean', 'list_superseded'),
  modern('modern echo', 11, 'tools/call', call({ text: 'hello' }, 'echo'), 'lean', 'echo'),
  modern('modern echo, string id', 'req-12', 'tools/call', call({ text: 'hello' }, 'echo'), 'lean', 'echo'),
  modern('modern echo, invalid arguments', 13, 'tools/call', call({ text: 42 }, 'echo'), 'lean', 'echo'),
  modern('modern echo, no arguments', 14, 'tools/call', { name: 'echo' }, 'lean', 'echo'),
  modern(
    'modern echo, in-band __ argument',
    15,
    'tools/call',
    call({ text: 'x', __session: 'k' }, 'echo'),
    'lean',
    'echo',
  ),
  modern('modern unknown tool', 16, 'tools/call', call({}, 'nope'), 'lean', 'nope'),
  modern('modern expected failure', 17, 'tools/call', call({}, 'refuse'), 'lean', 'refuse'),
  modern('modern unexpected failure', 18, 'tools/call', call({}, 'boom'), 'lean', 'boom'),
  modern('modern escaping', 19, 'tools/call', call({}, 'unicode'), 'lean', 'unicode'),
  modern('modern id 0', 0, 'tools/call', call({ text: '' }, 'echo'), 'lean', 'echo'),
  modern('modern negative id', -7, 'tools/list', {}, 'lean'),
  {
    name: 'modern Mcp-Name in base64',
    body: modernBody(20, 'tools/call', call({ text: 'b64' }, 'echo')),
    headers: modernHeaders('tools/call', base64Header('echo')),
    route: 'lean',
  },
  {
    name: 'modern non-ASCII unknown tool, base64 Mcp-Name',
    body: modernBody(21, 'tools/call', call({}, 'ünknown')),
    headers: modernHeaders('tools/call', base64Header('ünknown')),
    route: 'lean',
  },
  {
    name: 'modern header values with optional whitespace',
    body: modernBody(22, 'tools/call', call({ text: 'ows' }, 'echo')),
    headers: { 'mcp-protocol-version': ` ${MODERN}\t`, 'mcp-method': ' tools/call', 'mcp-name': 'echo ' },
    route: 'lean',
  },
  modern(
    'modern resources/read',
    23,
    'resources/read',
    { uri: 'decision:///0003-use-sqlite-for-storage.md' },
    'lean',
    'decision:///0003-use-sqlite-for-storage.md',
  ),
  modern(
    'modern resources/read missing',
    24,
    'resources/read',
    { uri: 'decision:///missing.md' },
    'lean',
    'decision:///missing.md',
  ),
  modern(
    'modern resources/read unowned scheme',
    25,
    'resources/read',
    { uri: 'nope://x' },
    'lean',
    'nope://x',
  ),
  {
    name: 'modern resources/read, non-ASCII uri in base64',
    body: modernBody(26, 'resources/read', { uri: 'test://ü' }),
    headers: modernHeaders('resources/read', base64Header('test://ü')),
    route: 'lean',
  },
  modern(
    'modern trace context',
    27,
    'tools/call',
    {
      ...call({ text: 't' }, 'echo'),
      _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    },
    'lean',
    'echo',
  ),
  {
    name: 'modern without clientInfo',
    body: {
      jsonrpc: '2.0',
      id: 28,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
    headers: modernHeaders('tools/list'),
    route: 'lean',
  },
  modern(
    'modern declared capabilities',
    29,
    'tools/list',
    {
      _meta: {
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, roots: { listChanged: true } },
      },
    },
    'lean',
  ),
  {
    name: 'modern Mcp-Name on tools/list is ignored',
    body: modernBody(30, 'tools/list'),
    headers: modernHeaders('tools/list', 'whatever'),
    route: 'lean',
  },
  // --- modern, SDK (errors in headers and envelope, progress, other methods) ---
  {
    name: 'modern Mcp-Method mismatch',
    body: modernBody(40, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: modernHeaders('tools/list', 'echo'),
    route: 'sdk',
  },
  {
    name: 'modern without MCP-Protocol-Version',
    body: modernBody(41, 'tools/list'),
    headers: { 'mcp-method': 'tools/list' },
    route: 'sdk',
  },
  {
    name: 'modern without Mcp-Method',
    body: modernBody(42, 'tools/list'),
    headers: { 'mcp-protocol-version': MODERN },
    route: 'sdk',
  },
  {
    name: 'modern tools/call without Mcp-Name',
    body: modernBody(43, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: modernHeaders('tools/call'),
    route: 'sdk',
  },
  {
    name: 'modern Mcp-Name mismatch',
    body: modernBody(44, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: modernHeaders('tools/call', 'get_decision'),
    route: 'sdk',
  },
  {
    name: 'modern Mcp-Name invalid base64',
    body: modernBody(45, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: modernHeaders('tools/call', '=?base64?ZWNo!!?='),
    route: 'sdk',
  },
  {
    name: 'modern Mcp-Name non-canonical base64',
    body: modernBody(46, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: modernHeaders('tools/call', '=?base64?ZWNobw?='),
    route: 'sdk',
  },
  {
    name: 'modern Mcp-Name base64 of another name',
    body: modernBody(47, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: modernHeaders('tools/call', base64Header('refuse')),
    route: 'sdk',
  },
  {
    name: 'modern resources/read Mcp-Name mismatch',
    body: modernBody(48, 'resources/read', { uri: 'test://a' }),
    headers: modernHeaders('resources/read', 'test://b'),
    route: 'sdk',
  },
  {
    name: 'modern header version differs from the envelope',
    body: modernBody(49, 'tools/list'),
    headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' },
    route: 'sdk',
  },
  {
    name: 'modern unsupported envelope version',
    body: {
      jsonrpc: '2.0',
      id: 50,
      method: 'tools/list',
      params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    },
    headers: { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    route: 'sdk',
  },
  {
    name: 'modern envelope without clientCapabilities',
    body: {
      jsonrpc: '2.0',
      id: 51,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
    },
    headers: modernHeaders('tools/list'),
    route: 'sdk',
  },
  {
    name: 'modern malformed clientInfo',
    body: modernBody(52, 'tools/list', { _meta: { 'io.modelcontextprotocol/clientInfo': { name: 5 } } }),
    headers: modernHeaders('tools/list'),
    route: 'sdk',
  },
  {
    name: 'modern malformed clientCapabilities',
    body: modernBody(53, 'tools/list', {
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { roots: 'yes' } },
    }),
    headers: modernHeaders('tools/list'),
    route: 'sdk',
  },
  {
    name: 'modern header without an envelope',
    body: { jsonrpc: '2.0', id: 54, method: 'tools/list', params: {} },
    headers: modernHeaders('tools/list'),
    route: 'sdk',
  },
  modern(
    'modern progress over SSE',
    55,
    'tools/call',
    { ...call({ n: 2 }, 'count'), _meta: { progressToken: 'p1' } },
    'sdk',
    'count',
  ),
  modern(
    'modern log level',
    56,
    'tools/call',
    { ...call({ text: 'l' }, 'echo'), _meta: { 'io.modelcontextprotocol/logLevel': 'info' } },
    'sdk',
    'echo',
  ),
  modern(
    'modern arguments not an object',
    57,
    'tools/call',
    { name: 'echo', arguments: ['x'] },
    'sdk',
    'echo',
  ),
  modern(
    'modern extra params key',
    58,
    'tools/call',
    { ...call({ text: 'x' }, 'echo'), extra: 1 },
    'sdk',
    'echo',
  ),
  // The tasks extension: a declaring tools/call may get a task, and tasks/* are the extension's.
  modern(
    'modern echo declaring the tasks extension',
    150,
    'tools/call',
    {
      ...call({ text: 'task?' }, 'echo'),
      _meta: {
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      },
    },
    'sdk',
    'echo',
  ),
  modern('modern tasks/get', 151, 'tasks/get', { taskId: 'some-task-id' }, 'sdk', 'some-task-id'),
  modern('modern tasks/cancel', 152, 'tasks/cancel', { taskId: 'some-task-id' }, 'sdk', 'some-task-id'),
  modern('modern tools/list numeric cursor', 59, 'tools/list', { cursor: 5 }, 'sdk'),
  modern('modern resources/list', 60, 'resources/list', {}, 'sdk'),
  modern('modern resources/list bad cursor', 61, 'resources/list', { cursor: '!!' }, 'sdk'),
  modern('modern resources/templates/list', 62, 'resources/templates/list', {}, 'sdk'),
  modern('modern unknown method', 63, 'foo/bar', {}, 'sdk'),
  modern('modern ping', 64, 'ping', {}, 'sdk'),
  modern('modern initialize', 65, 'initialize', {}, 'sdk'),
  modern('modern fractional id', 1.5, 'tools/list', {}, 'sdk'),
  modern(
    'modern MRTR requestState',
    66,
    'tools/call',
    { ...call({ text: 'x' }, 'echo'), requestState: 'zzz' },
    'sdk',
    'echo',
  ),
  {
    name: 'modern notification',
    body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: ENVELOPE } },
    headers: modernHeaders('notifications/cancelled'),
    route: 'sdk',
  },
  {
    name: 'modern batch',
    body: [modernBody(67, 'tools/list')],
    headers: modernHeaders('tools/list'),
    route: 'sdk',
  },
  {
    name: 'modern extra top-level key',
    body: { ...(modernBody(68, 'tools/list') as object), extra: true },
    headers: modernHeaders('tools/list'),
    route: 'sdk',
  },
  {
    name: 'modern arguments with an own __proto__ key',
    body: `{"jsonrpc":"2.0","id":69,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"a":1},"text":"p"},"_meta":${JSON.stringify(ENVELOPE)}}}`,
    headers: modernHeaders('tools/call', 'echo'),
    route: 'sdk',
  },
  // --- legacy, lean ---
  { name: 'legacy tools/list', body: legacyBody(100, 'tools/list'), headers: LEGACY, route: 'lean' },
  {
    name: 'legacy tools/list, empty params',
    body: legacyBody(101, 'tools/list', {}),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy tools/list, 2025-06-18',
    body: legacyBody(102, 'tools/list'),
    headers: { 'mcp-protocol-version': '2025-06-18' },
    route: 'lean',
  },
  { name: 'legacy tools/list, no version header', body: legacyBody(103, 'tools/list'), route: 'lean' },
  {
    name: 'legacy echo',
    body: legacyBody(104, 'tools/call', call({ text: 'hi' }, 'echo')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy get_decision',
    body: legacyBody(105, 'tools/call', call({ ref: '3' }, 'get_decision')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy search_decisions',
    body: legacyBody(106, 'tools/call', call({ query: 'sqlite' }, 'search_decisions')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy invalid arguments',
    body: legacyBody(107, 'tools/call', call({ text: 1 }, 'echo')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy unknown tool',
    body: legacyBody(108, 'tools/call', call({}, 'nope')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy expected failure',
    body: legacyBody(109, 'tools/call', call({}, 'refuse')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy unexpected failure',
    body: legacyBody(110, 'tools/call', call({}, 'boom')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy escaping',
    body: legacyBody('s-111', 'tools/call', call({}, 'unicode')),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy resources/read',
    body: legacyBody(112, 'resources/read', { uri: 'decision:///0003-use-sqlite-for-storage.md' }),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy resources/read missing',
    body: legacyBody(113, 'resources/read', { uri: 'test://zz' }),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy trace context',
    body: legacyBody(114, 'tools/call', {
      ...call({ text: 't' }, 'echo'),
      _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    }),
    headers: LEGACY,
    route: 'lean',
  },
  {
    name: 'legacy initialized notification',
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    headers: LEGACY,
    route: 'lean',
  },
  // --- legacy, SDK ---
  {
    name: 'legacy initialize',
    body: legacyBody(120, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    }),
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy Accept without text/event-stream',
    body: legacyBody(121, 'tools/list'),
    headers: { ...LEGACY, accept: 'application/json' },
    route: 'sdk',
  },
  {
    name: 'legacy progress',
    body: legacyBody(122, 'tools/call', { ...call({ n: 2 }, 'count'), _meta: { progressToken: 7 } }),
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy unsupported version header',
    body: legacyBody(123, 'tools/list'),
    headers: { 'mcp-protocol-version': '2024-01-01' },
    route: 'sdk',
  },
  {
    name: 'legacy modern version header, no envelope',
    body: legacyBody(124, 'tools/list'),
    headers: { 'mcp-protocol-version': MODERN },
    route: 'sdk',
  },
  {
    name: 'legacy batch',
    body: [legacyBody(125, 'tools/list'), legacyBody(126, 'tools/list')],
    headers: LEGACY,
    route: 'sdk',
  },
  { name: 'legacy resources/list', body: legacyBody(127, 'resources/list'), headers: LEGACY, route: 'sdk' },
  { name: 'legacy ping', body: legacyBody(128, 'ping'), headers: LEGACY, route: 'sdk' },
  {
    name: 'legacy server/discover without envelope',
    body: legacyBody(129, 'server/discover'),
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy arguments not an object',
    body: legacyBody(130, 'tools/call', { name: 'echo', arguments: 'x' }),
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy tools/call without params',
    body: legacyBody(131, 'tools/call'),
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy null id',
    body: { jsonrpc: '2.0', id: null, method: 'tools/list' },
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy posted response',
    body: { jsonrpc: '2.0', id: 1, result: {} },
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy other notification',
    body: { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    headers: LEGACY,
    route: 'sdk',
  },
  {
    name: 'legacy arguments with an own __proto__ key',
    body: '{"jsonrpc":"2.0","id":132,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"a":1},"text":"p"}}}',
    headers: LEGACY,
    route: 'sdk',
  },
  { name: 'invalid JSON', body: '{"jsonrpc":"2.0",', headers: LEGACY, route: 'sdk' },
  { name: 'empty body', body: '', headers: LEGACY, route: 'sdk' },
  { name: 'not JSON-RPC', body: { hello: 'world' }, headers: LEGACY, route: 'sdk' },
  // --- refused in front of both paths ---
  {
    name: 'text/plain body',
    body: legacyBody(140, 'tools/list'),
    headers: { ...LEGACY, 'content-type': 'text/plain' },
    route: 'none',
  },
  {
    name: 'Moor-Workspace not absolute',
    body: modernBody(141, 'tools/list'),
    headers: { ...modernHeaders('tools/list'), 'moor-workspace': 'relative/dir' },
    route: 'none',
  },
  {
    name: 'Moor-Workspace missing directory',
    body: modernBody(142, 'tools/call', call({ text: 'x' }, 'echo')),
    headers: { ...modernHeaders('tools/call', 'echo'), 'moor-workspace': `${E2E_WORKSPACE}/nope` },
    route: 'none',
  },
  {
    name: 'Moor-Session malformed',
    body: legacyBody(143, 'tools/list'),
    headers: { ...LEGACY, 'moor-session': 'short' },
    route: 'none',
  },
  {
    name: 'Moor-Workspace and Moor-Session accepted',
    body: modernBody(144, 'tools/call', call({ text: 'ws' }, 'echo')),
    headers: {
      ...modernHeaders('tools/call', 'echo'),
      'moor-workspace': E2E_WORKSPACE,
      'moor-session': 'moor-session-key-1',
    },
    route: 'lean',
  },
];

/** Headers with meaning; framing (content-length vs chunked), date and connection management are not compared. */
const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'x-accel-buffering',
  'allow',
  'retry-after',
  'www-authenticate',
  'mcp-session-id',
];

function meaningful(answer: RawAnswer): Record<string, string | null> {
  return Object.fromEntries(COMPARED_HEADERS.map((name) => [name, answer.headers.get(name)]));
}

const fx = fixture();
let lean: Started;
let sdk: Started;

beforeAll(async () => {
  lean = await start(fx);
  sdk = await start(fx, { lean: false });
});

afterAll(async () => {
  await lean?.endpoint.close(100);
  await sdk?.endpoint.close(100);
  fx.close();
});

describe('the lean path answers byte for byte like the SDK handler', () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const routesBefore = lean.routes.length;
    const viaLean = await post(lean.url, c.body, c.headers);
    const routed = lean.routes.slice(routesBefore);
    const viaSdk = await post(sdk.url, c.body, c.headers);
    expect(viaLean.status).toBe(viaSdk.status);
    expect(meaningful(viaLean)).toEqual(meaningful(viaSdk));
    expect(viaLean.text).toBe(viaSdk.text);
    if (c.route === 'none') expect(routed).toEqual([]);
    else expect(routed.map((r) => r.route)).toEqual([c.route]);
  });

  it('the corpus covers every hot method in both eras, successes and errors', () => {
    const leanNames = CORPUS.filter((c) => c.route === 'lean').map((c) => c.name);
    for (const word of [
      'modern tools/list',
      'modern server/discover',
      'modern echo',
      'modern resources/read',
      'legacy tools/list',
      'legacy echo',
      'legacy resources/read',
    ]) {
      expect(leanNames).toContain(word);
    }
    expect(CORPUS.length).toBeGreaterThan(90);
  });
});

describe('the daemon answers every tool alike on the lean and the SDK paths, over HTTP and the socket', () => {
  const copies = new WorkspaceCopies('moor-parity-');
  let state: string;
  let url: string;
  let a: string;
  let b: string;
  let c: string;

  beforeAll(async () => {
    a = copies.copy();
    b = copies.copy('0003-use-sqlite-for-storage.md');
    c = copies.copy();
    state = tempState('moor-parity-');
    url = (await startDaemon(state, ['-w', a])).url;
  }, 20_000);

  afterAll(async () => {
    await killAll();
    removeStateDirs();
    copies.removeAll();
  });

  /** The script over HTTP, each run in a session of its own (or none); task-capable tools left out with tasks on. */
  async function overHttp(session: string | undefined, tasks: boolean): Promise<Recorded[]> {
    const out: Recorded[] = [];
    for (const step of script(a, b, c)) {
      if (tasks && session !== undefined && TASK_TOOLS.has(step.tool)) continue;
      out.push(await callOverHttp(url, step, { session, tasks }));
    }
    return out;
  }

  it.each([
    ['with Moor-Session', 'parity-with-session'],
    ['without Moor-Session', undefined],
  ] as const)('%s', async (_label, key) => {
    const lean = await overHttp(key === undefined ? undefined : `${key}-lean-0123456789`, false);
    const sdk = await overHttp(key === undefined ? undefined : `${key}-sdk-0123456789`, true);
    const comparable =
      key === undefined ? lean : lean.filter((r) => !r.step.match(/^(check|draft)_decision/));
    expect(sdk).toEqual(comparable);
    // A fresh session is told which workspace it starts with, on either path.
    if (key !== undefined) expect(lean[0]?.text).toContain(`Active: ${a}, not loaded yet`);
  });

  it('over the socket, with and without the tasks extension, as over HTTP', async () => {
    const runs: Record<string, string[]> = {};
    for (const tasks of [false, true]) {
      const proxy = new RawClient(process.execPath, [MOOR_BIN, 'stdio', '-w', a], { MOOR_STATE_DIR: state });
      try {
        const texts: string[] = [];
        for (const step of script(a, b, c)) {
          if (step.workspace !== undefined || (tasks && TASK_TOOLS.has(step.tool))) continue;
          const answer = await proxy.modern('tools/call', {
            name: step.tool,
            arguments: step.args,
            _meta: {
              'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS]: {} } } : {},
            },
          });
          texts.push(
            comparable(JSON.stringify({ step: step.name, result: answer.result, error: answer.error })),
          );
        }
        runs[String(tasks)] = texts;
      } finally {
        await proxy.close();
      }
    }
    const without = (runs.false ?? []).filter(
      (t) => !t.includes('"step":"check_decisions"') && !t.includes('"step":"draft_decision"'),
    );
    expect(runs.true).toEqual(without);
    // The socket's session answers as an HTTP one does, once both have loaded their workspace.
    const http = (await overHttp('parity-socket-0123456789', false))
      .filter((r) => !r.step.startsWith('Moor-Workspace'))
      .map((r) => {
        const { result, error } = JSON.parse(r.text) as { result?: unknown; error?: unknown };
        return comparable(JSON.stringify({ step: r.step, result, error }));
      });
    const socket = runs.false ?? [];
    expect(socket.slice(1)).toEqual(http.slice(1));
  });
});
