/**
 * `moor stdio --direct`: serve in-process on stdin/stdout, both eras, with no
 * daemon. stdout carries protocol only; everything else goes to stderr.
 *
 * Its one client is one session, kept in memory (nothing survives the
 * process): it starts in the given workspace and has the same workspace
 * tools and `workspace` argument as through the daemon, so the two answer
 * alike.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { LineTransport } from '../../daemon/line-transport.js';
import { Workspace } from '../../host/call-scope.js';
import { Catalog } from '../../host/catalog.js';
import { audienceOf } from '../../host/events/listen.js';
import { ListenBudget } from '../../host/events/listen-budget.js';
import { ListenTransport } from '../../host/events/stdio-listens.js';
import { erasePack, type Pack } from '../../host/pack.js';
import { resourceNamer } from '../../host/resources.js';
import { createServerFactory } from '../../host/server-factory.js';
import { createDecisionsPack } from '../../packs/decisions/pack.js';
import type { DecisionsState } from '../../packs/decisions/state.js';
import { type RoomKey, Rooms, roomId } from '../../sessions/rooms.js';
import { createWorkspaceToolsPack } from '../../sessions/tools.js';
import { createWorkspacePolicy } from '../../sessions/workspace-path.js';
import { MemorySessionStore } from '../../store/memory-session-store.js';
import { DaemonSessions, type RoomContents } from '../daemon/daemon-sessions.js';
import { namedPacks } from '../daemon/packs.js';
import { IDENTITY, SERVER_PREAMBLE } from '../identity.js';
import type { ResolvedWorkspace } from './options.js';

export function serveDirect(
  resolved: ResolvedWorkspace,
  log: (line: string) => void,
  packs: readonly string[] = [],
): { close(): Promise<void> } {
  const decisionsFor = (decisionsDir: string | undefined) =>
    erasePack(createDecisionsPack({ decisionsDir, watch: true, searchIndex: 'background' }));
  const pack = decisionsFor(undefined);
  // Rooms open only once the catalog exists (the first acquire is below it): each announces to its own room.
  let catalog: Catalog | undefined;
  const rooms = new Rooms<RoomContents>({
    open: (key) => {
      const packs = new Map<Pack<unknown>, Pack<unknown>>();
      if (key.decisions !== undefined) packs.set(pack, decisionsFor(key.decisions));
      const workspace = new Workspace(key.root, catalog?.events.announcer(roomId(key)));
      return { workspace, packs, close: () => workspace.close() };
    },
  });
  const sessions = new DaemonSessions({
    rooms,
    store: new MemorySessionStore(),
    decisionsPack: pack,
    policy: createWorkspacePolicy(),
    writeRoots: [],
    httpHoldMs: 0,
    onError: (error, what) => log(`moor: ${what} failed: ${(error as Error)?.stack ?? String(error)}`),
  });
  catalog = new Catalog(
    [pack, erasePack(createWorkspaceToolsPack(sessions.manager)), ...namedPacks(packs)],
    SERVER_PREAMBLE,
    { workspaceArgument: true },
  );
  const initial: RoomKey = { root: resolved.root, decisions: resolved.decisionsDir };
  // The workspace is loaded now, so the first line on stderr can say what is served.
  const startup = rooms.acquire(initial);
  log(describeStartup(sessions.roomWorkspace(startup.room).stateOf(pack) as DecisionsState));
  const connection = sessions.openConnection(DIRECT_SESSION_KEY, initial).finally(() => startup.release());

  // As a socket connection's: the session begins (unsaved) at a listing, and is kept from its first call.
  const started = (save: boolean) => async () => {
    await connection;
    await sessions.manager.ensureStarted(DIRECT_SESSION_KEY, initial, save);
  };
  const scope = sessions.sessionScope(
    DIRECT_SESSION_KEY,
    undefined,
    started(true),
    undefined,
    started(false),
  );
  const factory = createServerFactory(catalog, {
    identity: IDENTITY,
    scopeFor: () => scope,
    onInternalError: (error, tool) =>
      log(`moor: tool ${tool} failed: ${(error as Error)?.stack ?? String(error)}`),
  });
  const router = catalog.events;
  const transport = new ListenTransport(new LineTransport(process.stdin, process.stdout), {
    router,
    budget: new ListenBudget({ warn: (message) => log(`moor: ${message}`) }),
    offer: { prompts: catalog.prompts.length > 0, tasks: false },
    audience: () => ({ ...audienceOf(scope, resourceNamer(catalog, scope)), ownerKey: undefined }),
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
      (await connection).close();
      sessions.close();
      rooms.closeAll();
    },
  };
}

/** The one session of a direct server (its client is the process's stdin). */
const DIRECT_SESSION_KEY = 'moor-direct-session';

function describeStartup(state: DecisionsState): string {
  if (state.kind === 'missing') return `moor: ${state.message}`;
  const { corpus } = state;
  const problems =
    corpus.problems.length > 0 ? `, ${corpus.problems.length} problems (run moor decisions check)` : '';
  return `moor: serving ${corpus.decisions.length} decisions from ${state.corpusDir}${problems}`;
}
