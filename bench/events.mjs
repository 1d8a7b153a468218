// `npm run bench events`: how long a decision edit takes to reach a subscribed
// client as `notifications/resources/updated`, through `moor stdio --direct`
// (watcher → corpus refresh → the leading-edge announcement → the wire; the
// 100 ms quiet period only settles what a burst's first refresh could not),
// on a 1k and a 10k corpus. Each edit is to another file,
// one at a time; the files are restored afterwards. On 10k the first edits land while the
// server's search index is still building in the background (right after the client connects),
// the rest after a search has finished it; the goal is judged on the worse of the two.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { reportGoal } from './goals.mjs';
import { corpus, percentile, ROOT, table } from './lib.mjs';

const EDITS = 20;

async function measure(count) {
  const { dir } = corpus(count);
  const client = new Client(
    { name: 'bench-events', version: '1' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'dist/cli/main.js'), 'stdio', '--direct', '-w', dir, '--decisions', dir],
      stderr: 'ignore',
    }),
  );
  // Top-level numbered records, every fifth (the listing is paged; the folder is not).
  const picked = fs
    .readdirSync(dir)
    .filter((name) => /^\d+-.*\.md$/.test(name))
    .sort()
    .filter((_, i) => i % 5 === 0)
    .slice(0, 2 * EDITS)
    .map((name) => ({ uri: `decision:///${encodeURIComponent(name)}` }));
  let arrived;
  client.setNotificationHandler('notifications/resources/updated', (n) => arrived?.(n.params.uri));
  const originals = new Map();
  const edit = async (resource) => {
    await client.subscribeResource({ uri: resource.uri });
    const file = path.join(
      dir,
      ...resource.uri.slice('decision:///'.length).split('/').map(decodeURIComponent),
    );
    const text = fs.readFileSync(file, 'utf8');
    originals.set(file, text);
    const got = new Promise((resolve) => {
      arrived = (uri) => {
        if (uri === resource.uri) resolve();
      };
    });
    const started = performance.now();
    fs.writeFileSync(file, `${text}\nEdited by the events benchmark.\n`);
    await got;
    return performance.now() - started;
  };
  const rows = [];
  try {
    if (count >= 10_000) {
      const building = [];
      for (const resource of picked.slice(EDITS)) building.push(await edit(resource));
      rows.push([`${count}`, 'index building', EDITS, percentile(building, 50), percentile(building, 99)]);
    }
    // A search finishes the index: from here on the server is as it stays.
    await client.callTool({ name: 'search_decisions', arguments: { query: 'storage' } });
    const built = [];
    for (const resource of picked.slice(0, EDITS)) built.push(await edit(resource));
    rows.push([`${count}`, 'index built', EDITS, percentile(built, 50), percentile(built, 99)]);
  } finally {
    for (const [file, text] of originals) fs.writeFileSync(file, text);
    await client.close();
  }
  return rows;
}

export async function benchEvents() {
  const rows = [];
  for (const count of [1000, 10_000]) rows.push(...(await measure(count)));
  const p50 = Math.max(...rows.filter((r) => r[0] === '10000').map((r) => r[3]));
  reportGoal('events-10k', `${p50.toFixed(0)} ms`, p50 <= 30);
  table(
    'events: file write → resources/updated at the client (moor stdio --direct, ms; announced on the leading edge)',
    ['decisions', 'search index', 'edits', 'p50', 'p99'],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEvents();
