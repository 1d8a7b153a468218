/**
 * HostContext for one request: logging through the SDK's per-request logger
 * (2026-07-28: only when the envelope carries a logLevel; 2025: filtered by
 * logging/setLevel), the client's declared capabilities, and change
 * announcements published on the catalog's event bus.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import type { HostContext, ListKind } from './pack.js';

export function hostContext(server: Server, ctx: ServerContext, events: ServerEventBus): HostContext {
  return {
    log: (level, data) => ctx.mcpReq.log(level, data),
    get clientCapabilities() {
      return clientCapabilitiesOf(server, ctx);
    },
    listChanged: (list) => announceListChanged(events, list),
    resourceUpdated: (uri) => events.publish({ kind: 'resource_updated', uri }),
  };
}

export function announceListChanged(events: ServerEventBus, list: ListKind): void {
  events.publish({ kind: `${list}_list_changed` });
}

/** The envelope's clientCapabilities on 2026-07-28; the initialize-declared ones on a 2025 connection. */
export function clientCapabilitiesOf(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const declared = envelope[CLIENT_CAPABILITIES_META_KEY];
  if (declared !== undefined) return declared as ClientCapabilities;
  return server.getClientCapabilities();
}
