/**
 * The lean HTTP path answers a repeated pure call (get_decision,
 * search_decisions) from its memo of the corpus version it was computed at.
 * Against the built daemon, which watches its corpus: a repeated call is the
 * same bytes; once a record is rewritten, every answer after the daemon took
 * the change is the new record, whole (never a memoized old one, never the
 * new body under the old title); a new record is found by search; a removed
 * one is no longer served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { authHeaders, killAll, removeStateDirs, startDaemon, tempState } from '../tasks/daemon-helpers.js';

const copies = new WorkspaceCopies('moor-memo-ws-');
let url: string;
let root: string;

beforeAll(async () => {
  root = copies.copy();
  ({ url } = await startDaemon(tempState('moor-memo-e2e-'), ['-w', root]));
});

afterAll(async () => {
  await killAll();
  removeStateDirs();
  copies.removeAll();
});

let nextId = 1;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'memo-e2e', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One modern tools/call, session-less (the lean path), as raw bytes and parsed. */
async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; result: Result }> {
  const id = nextId++;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...authHeaders(url),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: META },
    }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const parsed = JSON.parse(text) as { id: number; result: Result };
  expect(parsed.id).toBe(id);
  // The id is the request's own: what a memo shares is only the result.
  return { text: text.replace(`"id":${id}`, '"id":0'), result: parsed.result };
}

interface Result {
  isError?: boolean;
  structuredContent?: { title?: string; body?: string; hits?: Array<{ id: string; title: string }> };
}

const RECORD = 'docs/decisions/0004-json-over-http-api.md';

function record(title: string, marker: string): string {
  return `# 4. ${title}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy: ${marker}.\n\n## Decision\n\nWe do ${marker}.\n`;
}

/** Asks until `done` holds for an answer (the watcher's change on its way); every answer on the way is checked. */
async function untilAnswer(
  ask: () => Promise<{ result: Result }>,
  done: (result: Result) => boolean,
  each: (result: Result) => void = () => {},
): Promise<Result> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { result } = await ask();
    each(result);
    if (done(result)) return result;
    if (Date.now() > deadline) throw new Error(`never changed: ${JSON.stringify(result).slice(0, 300)}`);
    // Paced, so the poll does not crowd out the daemon's watcher on a small machine.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the lean path remembers pure answers per corpus version', () => {
  it('serves a repeated call the same bytes, and the rewritten record whole once the daemon took it', async () => {
    const first = await call('get_decision', { ref: '4' });
    expect(first.result.isError).toBeUndefined();
    const again = await call('get_decision', { ref: '4' });
    expect(again.text).toBe(first.text);

    fs.writeFileSync(path.join(root, RECORD), record('Protocol buffers over HTTP', 'protobuf'));
    const changed = await untilAnswer(
      () => call('get_decision', { ref: '4' }),
      (r) => r.structuredContent?.title === 'Protocol buffers over HTTP',
      (r) => {
        // Old or new, never a mix of the two.
        const isNew = r.structuredContent?.title === 'Protocol buffers over HTTP';
        expect(r.structuredContent?.body?.includes('protobuf')).toBe(isNew);
      },
    );
    expect(changed.structuredContent?.body).toContain('We do protobuf.');
    // From then on, the memo of the new version: the same bytes again.
    const a = await call('get_decision', { ref: '4' });
    const b = await call('get_decision', { ref: '4' });
    expect(b.text).toBe(a.text);
    expect(a.result.structuredContent?.title).toBe('Protocol buffers over HTTP');
  });

  it('finds a record added after a search was remembered, and stops serving a removed one', async () => {
    const query = { query: 'zebrafish' };
    const before = await call('search_decisions', query);
    expect(before.result.structuredContent?.hits).toEqual([]);
    const added = path.join(root, 'docs/decisions/0006-zebrafish-naming.md');
    fs.writeFileSync(added, record('Zebrafish naming', 'zebrafish').replace('# 4.', '# 6.'));
    const found = await untilAnswer(
      () => call('search_decisions', query),
      (r) => (r.structuredContent?.hits?.length ?? 0) > 0,
    );
    expect(found.structuredContent?.hits?.[0]?.title).toBe('Zebrafish naming');

    expect((await call('get_decision', { ref: '6' })).result.isError).toBeUndefined();
    fs.rmSync(added);
    const gone = await untilAnswer(
      () => call('get_decision', { ref: '6' }),
      (r) => r.isError === true,
    );
    expect(JSON.stringify(gone)).toContain('No decision matches');
  });
});
