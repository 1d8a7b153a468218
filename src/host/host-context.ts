/**
 * HostContext for one request: logging through the SDK's per-request logger
 * (2026-07-28: only when the envelope carries a logLevel; 2025: filtered by
 * logging/setLevel), the client's declared capabilities, and change
 * announcements published to the caller's active room.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallerScope } from './call-scope.js';
import type { EventRouter } from './events/router.js';
import type { HostContext } from './pack.js';

/** Announcements made during a request go to the caller's active room (nowhere when it has none). */
export function hostContext(
  server: Server,
  ctx: ServerContext,
  events: EventRouter,
  scope: CallerScope,
): HostContext {
  const room = scope.rooms()[0];
  return {
    log: (level, data) => ctx.mcpReq.log(level, data),
    get clientCapabilities() {
      return clientCapabilitiesOf(server, ctx);
    },
    listChanged: (list) => {
      if (room !== undefined) events.announcer(room).listChanged(list);
    },
    resourceUpdated: (uri) => {
      if (room !== undefined) events.announcer(room).resourceUpdated(uri);
    },
  };
}

/** The envelope's clientCapabilities on 2026-07-28; the initialize-declared ones on a 2025 connection. */
export function clientCapabilitiesOf(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const declared = envelope[CLIENT_CAPABILITIES_META_KEY];
  if (declared !== undefined) return declared as ClientCapabilities;
  return server.getClientCapabilities();
}
