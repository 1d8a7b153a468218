/**
 * `moor stdio --direct`: serve one workspace in-process on stdin/stdout, both
 * eras, with no daemon. stdout carries protocol only; everything else goes to
 * stderr.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Workspace } from '../host/binding.js';
import { Catalog } from '../host/catalog.js';
import { ListenBudget } from '../host/events/listen-budget.js';
import { ListenTransport } from '../host/events/stdio-listens.js';
import { erasePack } from '../host/pack.js';
import { createServerFactory } from '../host/server-factory.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import type { DecisionsState } from '../packs/decisions/state.js';
import { LineTransport } from '../protocol/line-transport.js';
import { IDENTITY, SERVER_PREAMBLE } from './identity.js';
import type { ResolvedWorkspace } from './options.js';
import { namedPacks } from './packs.js';

const DIRECT_ROOM = 'direct';

export function serveDirect(
  resolved: ResolvedWorkspace,
  log: (line: string) => void,
  packs: readonly string[] = [],
): { close(): Promise<void> } {
  const pack = createDecisionsPack({ decisionsDir: resolved.decisionsDir, watch: true });
  const catalog = new Catalog([erasePack(pack), ...namedPacks(packs)], SERVER_PREAMBLE);
  // One room: everything the workspace announces reaches this one connection.
  const workspace = new Workspace(resolved.root, catalog.events.announcer(DIRECT_ROOM));
  const state: DecisionsState = workspace.stateOf(pack);
  log(describeStartup(state));

  const binding = workspace.bind(undefined, [DIRECT_ROOM]);
  const factory = createServerFactory(catalog, {
    identity: IDENTITY,
    bind: () => binding,
    onInternalError: (error, tool) =>
      log(`moor: tool ${tool} failed: ${(error as Error)?.stack ?? String(error)}`),
  });
  const transport = new ListenTransport(new LineTransport(process.stdin, process.stdout), {
    router: catalog.events,
    budget: new ListenBudget({ warn: (message) => log(`moor: ${message}`) }),
    offer: { prompts: catalog.prompts.length > 0, tasks: false },
    audience: () => ({ rooms: [DIRECT_ROOM], ownerKey: undefined }),
    serverInfo: IDENTITY,
  });
  const handle = serveStdio(factory, {
    legacy: 'serve',
    transport,
    onerror: (error) => log(`moor: ${error.message}`),
  });
  return {
    async close() {
      transport.closeAll();
      await handle.close();
      workspace.close();
    },
  };
}

function describeStartup(state: DecisionsState): string {
  if (state.kind === 'missing') return `moor: ${state.message}`;
  const { corpus } = state;
  const problems =
    corpus.problems.length > 0 ? `, ${corpus.problems.length} problems (run moor decisions check)` : '';
  return `moor: serving ${corpus.decisions.length} decisions from ${state.corpusDir}${problems}`;
}
