/**
 * Shared set-up for the HTTP endpoint tests: a catalog of the decisions pack
 * (on the e2e fixture repository) plus a test-only pack with tools that wait
 * on their signal, report progress, fail and throw; an endpoint on
 * 127.0.0.1:0; and raw fetch helpers for exact statuses and bytes.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { IDENTITY, SERVER_PREAMBLE } from '../../src/app/identity.js';
import { MoorError, ToolError } from '../../src/errors.js';
import { AdmissionGate } from '../../src/host/admission.js';
import { type CallerScope, Workspace } from '../../src/host/call-scope.js';
import { Catalog } from '../../src/host/catalog.js';
import { definePack, defineTool, erasePack, type Pack } from '../../src/host/pack.js';
import { type HttpEndpoint, type HttpEndpointOptions, startHttpEndpoint } from '../../src/http/endpoint.js';
import { createDecisionsPack } from '../../src/packs/decisions/pack.js';
import type { Incarnation } from '../../src/protocol/hello.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';

export const INCARNATION: Incarnation = {
  pid: process.pid,
  startedAt: '2026-11-30T00:00:00.000Z',
  version: '0.1.0',
};

export const MODERN = '2026-07-28';
export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'http-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
} as const;

/** What the test pack's tools saw: lets a test wait for a tool to start and see its signal fire. */
export const probe = {
  started: new Set<string>(),
  aborted: new Set<string>(),
  sessionKeys: [] as Array<string | undefined>,
  workspaces: [] as string[],
  reset(): void {
    this.started.clear();
    this.aborted.clear();
    this.sessionKeys.length = 0;
    this.workspaces.length = 0;
  },
};

const TEST_STATE = { kind: 'test-state' } as const;

export const testPack: Pack<typeof TEST_STATE> = definePack({
  name: 'test',
  instructions: 'Test pack: tools that exercise the host.',
  tools: [
    defineTool({
      name: 'echo',
      title: 'Echo',
      description: 'Echoes its text.',
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string(), length: z.number() }),
      annotations: { readOnlyHint: true },
      handler: (args, ctx) => {
        probe.sessionKeys.push(ctx.sessionKey);
        probe.workspaces.push(ctx.workspaceRoot);
        return { structured: { text: args.text, length: args.text.length }, text: args.text };
      },
    }),
    defineTool({
      name: 'wait',
      title: 'Wait',
      description: 'Waits until cancelled or until ms elapse.',
      input: z.object({ tag: z.string(), ms: z.number().int().min(0).max(60_000).default(30_000) }),
      output: z.object({ waited: z.boolean() }),
      annotations: { readOnlyHint: true },
      handler: async (args, ctx) => {
        probe.started.add(args.tag);
        const waited = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), args.ms);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            probe.aborted.add(args.tag);
            resolve(false);
          });
        });
        return { structured: { waited }, text: waited ? 'waited' : 'cancelled' };
      },
    }),
    defineTool({
      name: 'count',
      title: 'Count',
      description: 'Counts to n, reporting progress.',
      input: z.object({ n: z.number().int().min(1).max(10) }),
      output: z.object({ counted: z.number() }),
      annotations: { readOnlyHint: true },
      handler: async (args, ctx) => {
        for (let i = 1; i <= args.n; i++) {
          await ctx.progress(i, args.n, `step ${i}`);
          await new Promise((r) => setTimeout(r, 5));
        }
        return { structured: { counted: args.n }, text: `counted to ${args.n}` };
      },
    }),
    defineTool({
      name: 'refuse',
      title: 'Refuse',
      description: 'Always an expected failure.',
      input: z.object({}),
      output: z.object({}),
      annotations: {},
      handler: () => {
        throw new ToolError('INVALID_ARGUMENTS', 'refused on purpose');
      },
    }),
    defineTool({
      name: 'boom',
      title: 'Boom',
      description: 'Always an unexpected failure.',
      input: z.object({}),
      output: z.object({}),
      annotations: {},
      handler: () => {
        throw new Error('kaboom');
      },
    }),
    defineTool({
      name: 'unicode',
      title: 'Unicode',
      description: 'Answers with characters that need escaping.',
      input: z.object({}),
      output: z.object({ text: z.string(), n: z.number() }),
      annotations: { readOnlyHint: true },
      handler: () => ({
        structured: { text: 'é ü 漢字 "q" \\ \n \u2028 \ud83d\ude00', n: 1.5e-7 },
        text: 'é 漢字 </script> \u0000',
      }),
    }),
  ],
  resources: [
    {
      uriTemplate: 'test://{name}',
      name: 'test',
      title: 'Test resources',
      description: 'Two fixed resources.',
      mimeType: 'text/plain',
      owns: (uri) => uri.startsWith('test://'),
      list: () => [
        { uri: 'test://a', name: 'a', mimeType: 'text/plain' },
        { uri: 'test://ü', name: 'ü', mimeType: 'text/plain' },
      ],
      read: (_state, uri) =>
        uri === 'test://a' || uri === 'test://ü'
          ? { uri, mimeType: 'text/plain', text: `content of ${uri}` }
          : undefined,
    },
  ],
  open: () => TEST_STATE,
});

export interface Fixture {
  readonly catalog: Catalog;
  readonly workspaces: Map<string, Workspace>;
  scopeForRequest(request: { sessionKey: string | undefined; workspace: string | undefined }): CallerScope;
  close(): void;
}

/** A catalog of the decisions pack and the test pack, bound to the e2e fixture repository by default. */
export function fixture(): Fixture {
  const decisions = createDecisionsPack({ decisionsDir: undefined, watch: false });
  const catalog = new Catalog([erasePack(decisions), erasePack(testPack)], SERVER_PREAMBLE);
  const workspaces = new Map<string, Workspace>();
  const workspaceFor = (root: string) => {
    let ws = workspaces.get(root);
    if (!ws) {
      ws = new Workspace(root, catalog.events.announcer(root));
      workspaces.set(root, ws);
    }
    return ws;
  };
  return {
    catalog,
    workspaces,
    scopeForRequest({ sessionKey, workspace }) {
      const root = workspace ?? E2E_WORKSPACE;
      if (!existsSync(root) || !statSync(root).isDirectory()) {
        throw new MoorError('WORKSPACE_INVALID', `Moor-Workspace ${root} is not an existing directory.`);
      }
      if (!path.resolve(root).startsWith(path.dirname(E2E_WORKSPACE))) {
        throw new MoorError('WORKSPACE_INVALID', `Moor-Workspace ${root} is outside the allowed roots.`);
      }
      // The room id is the root: each workspace's events reach its own requests only.
      return workspaceFor(root).scope(sessionKey, [root]);
    },
    close() {
      for (const ws of workspaces.values()) ws.close();
    },
  };
}

export interface Started {
  readonly endpoint: HttpEndpoint;
  readonly url: string;
  readonly base: string;
  readonly routes: Array<{ route: 'lean' | 'sdk'; method: string | undefined }>;
  readonly logs: Array<{ level: string; message: string }>;
  readonly admission: AdmissionGate;
}

export async function start(fx: Fixture, overrides: Partial<HttpEndpointOptions> = {}): Promise<Started> {
  const routes: Started['routes'] = [];
  const logs: Started['logs'] = [];
  const admission = overrides.admission ?? new AdmissionGate(64);
  const endpoint = await startHttpEndpoint({
    host: '127.0.0.1',
    port: 0,
    catalog: fx.catalog,
    identity: IDENTITY,
    incarnation: INCARNATION,
    admission,
    scopeForRequest: (request) => fx.scopeForRequest(request),
    // As the daemon does: a scope's rooms loaded now (here a room is its root's workspace).
    loadedRooms: (scope) => scope.rooms().flatMap((root) => fx.workspaces.get(root) ?? []),
    onInternalError: (error, tool) =>
      logs.push({ level: 'internal', message: `${tool}: ${(error as Error).message}` }),
    log: (level, message) => logs.push({ level, message }),
    onRoute: (route, method) => routes.push({ route, method }),
    ...overrides,
  });
  await endpoint.leanReady;
  return { endpoint, url: endpoint.url, base: endpoint.url.replace(/\/mcp$/, ''), routes, logs, admission };
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A raw POST; `body` is sent as given when it is a string, else JSON-encoded. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  init: { signal?: AbortSignal } = {},
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The standard headers a modern request carries (SEP-2243). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
}

export function modernBody(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
): unknown {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { ...ENVELOPE, ...((params._meta as object) ?? {}) } },
  };
}

export function legacyBody(id: number | string, method: string, params?: Record<string, unknown>): unknown {
  return { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) };
}

/** The JSON-RPC message(s) of an answer, whether JSON or SSE-framed. */
export function messages(answer: RawAnswer): Array<Record<string, unknown>> {
  const type = answer.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    return answer.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  }
  return answer.text.length > 0 ? [JSON.parse(answer.text) as Record<string, unknown>] : [];
}

export function base64Header(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
