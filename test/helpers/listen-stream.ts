/**
 * A `subscriptions/listen` stream opened by hand over HTTP, for tests that
 * check the exact frames a stream receives (acknowledgement, notifications).
 */
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

export interface ListenStreamFrames {
  readonly status: number;
  readonly frames: Array<Record<string, unknown>>;
  readonly body?: unknown;
  close(): void;
}

/** A raw 2026-07-28 listen stream over HTTP (SSE): its parsed frames as they arrive. */
export async function openListenStream(
  url: string,
  filter: Record<string, unknown>,
  session: string,
  options: { declare?: boolean; headers?: Record<string, string> } = {},
): Promise<ListenStreamFrames> {
  const declare = options.declare ?? true;
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      ...options.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
      'moor-session': session,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: `listen-${session}`,
      method: 'subscriptions/listen',
      params: {
        notifications: filter,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': declare ? { extensions: { [TASKS]: {} } } : {},
        },
      },
    }),
  });
  const frames: Array<Record<string, unknown>> = [];
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: response.status, frames, body: await response.json(), close: () => {} };
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const data = buffered
            .slice(0, end)
            .split('\n')
            .find((l) => l.startsWith('data: '));
          if (data !== undefined) frames.push(JSON.parse(data.slice(6)));
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return { status: response.status, frames, close: () => controller.abort() };
}
