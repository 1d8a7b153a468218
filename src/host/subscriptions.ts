/**
 * Change delivery to 2025 connections that outlive a request (direct stdio,
 * the daemon's socket hop), and the 2025 resources/subscribe and
 * resources/unsubscribe handlers (McpServer does not register them; we
 * declare `resources.subscribe`).
 *
 * A legacy-pinned instance follows the events of the rooms its scope
 * holds once connected and sends each as an unsolicited notification
 * (resource updates only for subscribed URIs). A connection whose
 * initialize declared the tasks extension also hears `notifications/tasks`
 * for its own session's tasks: each one's current state once it is
 * initialized (a task may have finished before it connected), then every
 * change. 2026-07-28 connections hear nothing
 * unsolicited: their listen streams (events/stdio-listens.ts) subscribe
 * themselves.
 */
import type { McpRequestContext, Server, ServerEvent } from '@modelcontextprotocol/server';
import { TASKS_EXTENSION_ID } from '../protocol/constants.js';
import type { CallerScope } from './call-scope.js';
import type { EventRouter, TaskStatusEvent } from './events/router.js';

/** `onSubscribe` runs before each subscription (the scope's resource states must be open to hear changes). */
export function installLegacySubscriptions(
  server: Server,
  subscribed: Set<string>,
  onSubscribe: () => void,
): void {
  server.setRequestHandler('resources/subscribe', (request) => {
    onSubscribe();
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
}

/** After connect, forwards the scope's room events (and its tasks' status) until the transport closes. */
export function followEvents(
  server: Server,
  ctx: McpRequestContext,
  events: EventRouter,
  scope: CallerScope,
  subscribed: ReadonlySet<string>,
): void {
  if (ctx.era !== 'legacy') return;
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const stops: Array<() => void> = [];
    const stop = () => {
      for (const s of stops.splice(0)) s();
    };
    const live = () => {
      if (server.transport !== undefined) return true;
      stop();
      return false;
    };
    // A session's rooms change as it switches workspaces: ask the scope at each event.
    const hear = (event: ServerEvent) => {
      if (live()) deliver(server, event, subscribed).catch(() => {});
    };
    stops.push(
      scope.roomsChange
        ? events.subscribeAll((event, roomId) => {
            if (scope.rooms().includes(roomId)) hear(event);
          })
        : events.subscribe(scope.rooms(), hear),
    );
    const owner = scope.sessionKey;
    if (owner !== undefined) {
      // Once its initialize declared the extension: each of the session's tasks as it is now, then
      // every change. Subscribed first, so no change is lost while the rows are read; a change heard
      // meanwhile is newer than the row, so it wins.
      const heard = new Set<string>();
      stops.push(
        events.subscribeTasks(owner, (event) => {
          if (!live() || !declaresTasks(server)) return;
          heard.add(event.taskId);
          deliverTask(server, event).catch(() => {});
        }),
      );
      const initialized = server.oninitialized;
      server.oninitialized = () => {
        initialized?.();
        if (!declaresTasks(server)) return;
        events.currentTasks(owner).then(
          (current) => {
            for (const event of current)
              if (live() && !heard.has(event.taskId)) deliverTask(server, event).catch(() => {});
          },
          () => {
            // The store is closing: the connection ends with it.
          },
        );
      };
    }
    const onclose = transport.onclose;
    transport.onclose = () => {
      stop();
      onclose?.();
    };
  };
}

function declaresTasks(server: Server): boolean {
  const extensions = server.getClientCapabilities()?.extensions as Record<string, unknown> | undefined;
  return extensions?.[TASKS_EXTENSION_ID] !== undefined;
}

function deliverTask(server: Server, event: TaskStatusEvent): Promise<void> {
  return server.notification({
    method: 'notifications/tasks',
    params: event.detailed,
  } as unknown as Parameters<Server['notification']>[0]);
}

function deliver(server: Server, event: ServerEvent, subscribed: ReadonlySet<string>): Promise<void> {
  switch (event.kind) {
    case 'tools_list_changed':
      return server.sendToolListChanged();
    case 'prompts_list_changed':
      return server.sendPromptListChanged();
    case 'resources_list_changed':
      return server.sendResourceListChanged();
    case 'resource_updated':
      if (!subscribed.has(event.uri)) return Promise.resolve();
      return server.sendResourceUpdated({ uri: event.uri });
  }
}
