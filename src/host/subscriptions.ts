/**
 * Change delivery to connections that outlive a request (stdio, the daemon's
 * socket hop), and the 2025 resources/subscribe and resources/unsubscribe
 * handlers (McpServer does not register them; we declare
 * `resources.subscribe`).
 *
 * A pinned instance follows the catalog's event bus once connected and
 * turns each event into its own send*ListChanged / sendResourceUpdated: on a
 * 2025 connection these go out as unsolicited notifications (resource
 * updates only for subscribed URIs); on a 2026-07-28 connection the SDK's
 * listen router delivers them to the subscriptions that asked. Over HTTP the
 * endpoint's listen streams read the same bus directly, so per-request
 * instances do not follow it.
 */
import type { McpRequestContext, Server, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

export function installLegacySubscriptions(server: Server, subscribed: Set<string>): void {
  server.setRequestHandler('resources/subscribe', (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
}

/** After connect, forwards the bus's events to this instance until its transport closes. */
export function followEvents(
  server: Server,
  ctx: McpRequestContext,
  events: ServerEventBus,
  subscribed: ReadonlySet<string>,
): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const unsubscribe = events.subscribe((event) => {
      if (server.transport === undefined) {
        unsubscribe();
        return;
      }
      deliver(server, ctx, event, subscribed).catch(() => {
        // The connection is going away; the next event unsubscribes.
      });
    });
  };
}

function deliver(
  server: Server,
  ctx: McpRequestContext,
  event: ServerEvent,
  subscribed: ReadonlySet<string>,
): Promise<void> {
  switch (event.kind) {
    case 'tools_list_changed':
      return server.sendToolListChanged();
    case 'prompts_list_changed':
      return server.sendPromptListChanged();
    case 'resources_list_changed':
      return server.sendResourceListChanged();
    case 'resource_updated':
      if (ctx.era === 'legacy' && !subscribed.has(event.uri)) return Promise.resolve();
      return server.sendResourceUpdated({ uri: event.uri });
  }
}
