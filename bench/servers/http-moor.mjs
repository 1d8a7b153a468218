// moor's HTTP endpoint as the daemon starts it (built dist): the decisions pack on the e2e
// fixture repository plus a one-tool echo pack (the same trivial tool the anchors serve).
// Metrics on, as the daemon runs by default (a private prom-client registry observing every
// request and tool call); --no-metrics is the "metrics off" arm measured beside it.
//   node bench/servers/http-moor.mjs [--no-lean] [--no-metrics]
import path from 'node:path';
import { z } from 'zod';
import { IDENTITY, SERVER_PREAMBLE } from '../../dist/app/identity.js';
import { AdmissionGate } from '../../dist/host/admission.js';
import { Workspace } from '../../dist/host/call-scope.js';
import { Catalog } from '../../dist/host/catalog.js';
import { definePack, defineTool, erasePack } from '../../dist/host/pack.js';
import { startHttpEndpoint } from '../../dist/http/endpoint.js';
import { DeferredMetrics } from '../../dist/observe/deferred-metrics.js';
import { createDaemonMetrics } from '../../dist/observe/metrics.js';
import { RequestObserver } from '../../dist/observe/observer.js';
import { createDecisionsPack } from '../../dist/packs/decisions/pack.js';

const root = path.resolve(new URL('../../test/fixtures/e2e/repo', import.meta.url).pathname);
const echoPack = definePack({
  name: 'bench',
  instructions: 'Benchmark tools.',
  tools: [
    defineTool({
      name: 'echo',
      title: 'Echo',
      description: 'Echoes its text.',
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
      handler: ({ text }) => ({ structured: { text }, text }),
    }),
  ],
  resources: [],
  open: () => ({}),
});
// Watched and indexed in the background, as the daemon's corpus is.
const decisions = createDecisionsPack({ decisionsDir: undefined, watch: true, searchIndex: 'background' });
const catalog = new Catalog([erasePack(decisions), erasePack(echoPack)], SERVER_PREAMBLE);
const workspace = new Workspace(root);
const scope = workspace.scope(undefined);
const admission = new AdmissionGate(256);
let observer;
if (!process.argv.includes('--no-metrics')) {
  // As the daemon does: observations go through DeferredMetrics, loaded before the bench starts.
  const metrics = new DeferredMetrics();
  await metrics.load(() =>
    createDaemonMetrics(
      catalog.tools.map((tool) => tool.name),
      {
        inFlight: () => admission.inFlight,
        sessions: () => 0,
        roomsLoaded: () => 1,
        tasksByStatus: () => ({}),
      },
    ),
  );
  observer = new RequestObserver(metrics, undefined);
  catalog.toolCallObserver = observer.toolCall;
}
const endpoint = await startHttpEndpoint({
  host: '127.0.0.1',
  port: 0,
  catalog,
  identity: IDENTITY,
  incarnation: { pid: process.pid, startedAt: new Date().toISOString(), version: IDENTITY.version },
  admission,
  observer,
  scopeForRequest: () => scope,
  onInternalError: (error, tool) => process.stderr.write(`moor-http: ${tool}: ${error}\n`),
  log: (level, message) => {
    if (level !== 'info') process.stderr.write(`moor-http ${level}: ${message}\n`);
  },
  lean: !process.argv.includes('--no-lean'),
});
await endpoint.leanReady;
console.log(`LISTEN ${new URL(endpoint.url).port}`);
process.on('SIGTERM', () => {
  setTimeout(() => process.exit(0), 1000).unref();
  void endpoint.close(200).then(() => {
    workspace.close();
    process.exit(0);
  });
});
