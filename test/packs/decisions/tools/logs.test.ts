/**
 * A monorepo with a decision log per package, served as one workspace: ids
 * and URIs carry the log's name (both logs have a 0001), search covers every
 * log or one, get_decision takes a namespaced id, get_decision_context asks
 * the log of the package a file lies in, and changes are announced under the
 * namespaced URI.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../src/errors.js';
import type { HostContext, ToolContext } from '../../../../src/host/pack.js';
import { decisionResources } from '../../../../src/packs/decisions/resources.js';
import { type DecisionsState, openDecisions } from '../../../../src/packs/decisions/state.js';
import { getDecisionContext } from '../../../../src/packs/decisions/tools/context.js';
import { getDecision } from '../../../../src/packs/decisions/tools/get.js';
import { searchDecisions } from '../../../../src/packs/decisions/tools/search.js';
import { REPO_ROOT } from '../../../helpers/paths.js';
import { tempDir } from '../corpus/helpers.js';
import { call, madr, type Workspace, workspace } from './helpers.js';

const MONOREPO = path.join(REPO_ROOT, 'test/fixtures/corpora/monorepo');

function monorepo(state: DecisionsState = openDecisions(MONOREPO, { watch: false })): Workspace {
  return {
    root: MONOREPO,
    ctx: (): ToolContext<DecisionsState> => ({
      state,
      workspaceRoot: MONOREPO,
      signal: new AbortController().signal,
      sessionKey: undefined,
      host: {} as HostContext,
      progress: async () => {},
      requestInput: async () => {
        throw new ToolError('USAGE', 'no input');
      },
    }),
    close: () => {
      if (state.kind === 'loaded') state.corpus.close();
    },
  };
}

let ws: Workspace | undefined;
afterEach(() => {
  ws?.close();
  ws = undefined;
});

const hitIds = (out: { structured: Record<string, unknown> }) =>
  (out.structured.hits as Array<{ id: string }>).map((h) => h.id);

describe('a workspace of several decision logs', () => {
  it('finds each package log and names it after its package', () => {
    const state = openDecisions(MONOREPO, { watch: false });
    ws = monorepo(state);
    expect(state.kind).toBe('loaded');
    if (state.kind !== 'loaded') return;
    expect(state.logs?.map((l) => [l.name, path.relative(MONOREPO, l.dir)])).toEqual([
      ['billing', 'packages/billing/docs/adr'],
      ['auth', 'services/auth/decisions'],
    ]);
    expect(state.corpus.decisions.map((d) => d.id)).toEqual([
      'billing:0001',
      'billing:0002',
      'auth:0001',
      'auth:0002',
    ]);
  });

  it('search covers every log, or only the one named by log', async () => {
    ws = monorepo();
    expect(hitIds(await call(searchDecisions, ws, { query: 'postgres' }))).toEqual([
      'billing:0001',
      'auth:0001',
    ]);
    const auth = await call(searchDecisions, ws, { query: 'postgres', log: 'auth' });
    expect(hitIds(auth)).toEqual(['auth:0001']);
    expect(auth.structured.total).toBe(1);
    expect(auth.text).toContain(
      '- auth:0001 Session tokens are opaque [accepted, 2025-02-10] services/auth/decisions/',
    );
  });

  it('search pages across logs with the cursor', async () => {
    ws = monorepo();
    const first = await call(searchDecisions, ws, { query: 'postgres', limit: 1 });
    expect(hitIds(first)).toEqual(['billing:0001']);
    const second = await call(searchDecisions, ws, {
      query: 'postgres',
      limit: 1,
      cursor: first.structured.nextCursor,
    });
    expect(hitIds(second)).toEqual(['auth:0001']);
    expect(second.structured.nextCursor).toBeNull();
  });

  it('search refuses a log the workspace does not have, naming the ones it has', async () => {
    ws = monorepo();
    const refused = call(searchDecisions, ws, { query: 'postgres', log: 'shipping' });
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: 'log "shipping" is not one of this repository\'s decision logs: billing, auth.',
    });
  });

  it('a single-log repository has no log to choose', async () => {
    ws = workspace({ 'docs/decisions/0001-a.md': madr('Cache A', { status: 'accepted' }) });
    await expect(call(searchDecisions, ws, { query: 'cache', log: 'billing' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: 'log "billing": this repository keeps a single decision log; search without log.',
    });
  });

  it('get_decision takes a namespaced id; a bare number both logs have is ambiguous', async () => {
    ws = monorepo();
    const billing = await call(getDecision, ws, { ref: 'billing:0001' });
    expect(billing.structured).toMatchObject({
      id: 'billing:0001',
      title: 'Store invoices in Postgres',
      path: 'packages/billing/docs/adr/0001-store-invoices-in-postgres.md',
    });
    expect((await call(getDecision, ws, { ref: 'auth:1' })).structured.id).toBe('auth:0001');
    // The resource's path and the repository path name the record too.
    expect((await call(getDecision, ws, { ref: 'auth/0001-session-tokens.md' })).structured.id).toBe(
      'auth:0001',
    );
    expect(
      (await call(getDecision, ws, { ref: 'services/auth/decisions/0001-session-tokens.md' })).structured.id,
    ).toBe('auth:0001');
    await expect(call(getDecision, ws, { ref: '0001' })).rejects.toMatchObject({
      code: 'DECISION_AMBIGUOUS',
    });
    await expect(call(getDecision, ws, { ref: 'billing:0009' })).rejects.toMatchObject({
      code: 'DECISION_NOT_FOUND',
    });
  });

  it('relations resolve in the record’s own log, and across logs when named (billing:0002 amends auth:0001)', async () => {
    ws = monorepo();
    const rotate = await call(getDecision, ws, { ref: 'auth:0002' });
    expect(rotate.structured.supersedes).toEqual(['auth:0001']);
    const sign = await call(getDecision, ws, { ref: 'billing:0002' });
    expect(sign.structured.amends).toEqual(['auth:0001']);
    const tokens = await call(getDecision, ws, { ref: 'auth:0001' });
    expect(tokens.structured).toMatchObject({ supersededBy: ['auth:0002'], amendedBy: ['billing:0002'] });
  });

  it('get_decision_context asks the log of the nearest package; a file in no package asks every log', async () => {
    ws = monorepo();
    const out = await call(getDecisionContext, ws, {
      files: ['packages/billing/src/invoice.ts', 'services/auth/src/session.ts', 'tools/src/lint.ts'],
    });
    const files = out.structured.files as Array<{
      file: string;
      governing: Array<{ id: string }>;
      proposed: Array<{ id: string }>;
    }>;
    // auth:0001 governs **/src/**, but billing's files are governed by billing's log.
    expect(files.map((f) => [f.file, f.governing.map((g) => g.id), f.proposed.map((p) => p.id)])).toEqual([
      ['packages/billing/src/invoice.ts', ['billing:0001'], []],
      ['services/auth/src/session.ts', ['auth:0001'], ['auth:0002']],
      ['tools/src/lint.ts', ['auth:0001'], ['auth:0002']],
    ]);
  });

  it('resources are listed and read under namespaced URIs', () => {
    const state = openDecisions(MONOREPO, { watch: false });
    ws = monorepo(state);
    const uris = decisionResources.list(state).map((r) => [r.uri, r.name]);
    expect(uris).toEqual([
      ['decision:///billing/0001-store-invoices-in-postgres.md', 'billing:0001'],
      ['decision:///billing/0002-sign-invoices-with-auth-tokens.md', 'billing:0002'],
      ['decision:///auth/0001-session-tokens.md', 'auth:0001'],
      ['decision:///auth/0002-rotate-tokens.md', 'auth:0002'],
    ]);
    const read = decisionResources.read(state, 'decision:///auth/0001-session-tokens.md');
    expect(read?.text).toContain('# Session tokens are opaque');
    expect(decisionResources.read(state, 'decision:///0001-session-tokens.md')).toBeUndefined();
  });

  it('a changed record is announced under its namespaced URI', () => {
    const { dir, cleanup } = tempDir('moor-logs-');
    const root = path.join(dir, 'repo');
    cpSync(MONOREPO, root, { recursive: true });
    const said: string[] = [];
    const state = openDecisions(
      root,
      { watch: false, announceTimer: { set: () => 0, clear: () => {} } },
      { resourceUpdated: (uri) => said.push(uri), listChanged: (list) => said.push(`list ${list}`) },
    );
    try {
      if (state.kind !== 'loaded') throw new Error('expected the logs to load');
      const titleOf = (id: string) => state.corpus.decisions.find((d) => d.id === id)?.title;
      expect(titleOf('auth:0001')).toBe('Session tokens are opaque');
      const file = path.join(root, 'services/auth/decisions/0001-session-tokens.md');
      writeFileSync(file, madr('Session tokens are opaque, and short', { status: 'accepted' }));
      state.corpus.refresh();
      expect(said).toEqual(['decision:///auth/0001-session-tokens.md']);
      // The composed list follows the log's own.
      expect(titleOf('auth:0001')).toBe('Session tokens are opaque, and short');
    } finally {
      if (state.kind === 'loaded') {
        state.announcer?.close();
        state.corpus.close();
      }
      cleanup();
    }
  });

  it('a watched log announces an edit under its namespaced URI', async () => {
    const { dir, cleanup } = tempDir('moor-logs-watch-');
    const root = path.join(dir, 'repo');
    cpSync(MONOREPO, root, { recursive: true });
    let heard: (uri: string) => void = () => {};
    const announced = new Promise<string>((resolve) => {
      heard = resolve;
    });
    const state = openDecisions(
      root,
      { watch: true },
      { resourceUpdated: (uri) => heard(uri), listChanged: () => {} },
    );
    try {
      writeFileSync(
        path.join(root, 'packages/billing/docs/adr/0002-sign-invoices-with-auth-tokens.md'),
        madr('Sign invoices with the session tokens, twice', { status: 'accepted' }),
      );
      expect(await announced).toBe('decision:///billing/0002-sign-invoices-with-auth-tokens.md');
    } finally {
      if (state.kind === 'loaded') {
        state.announcer?.close();
        state.corpus.close();
      }
      cleanup();
    }
  });
});
