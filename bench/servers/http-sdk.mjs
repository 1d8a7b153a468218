// The SDK anchor: what an SDK user writes. createMcpHandler (legacy: 'stateless') on node:http
// via toNodeHandler, behind the localhost Host/Origin guards; the factory builds a new McpServer
// and registers a small echo tool (inline zod) on every request.
import http from 'node:http';
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const factory = () => {
  const server = new McpServer({ name: 'sdk-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text.',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
};
const onerror = (e) => process.stderr.write(`sdk-http: ${e.message}\n`);
const handler = createMcpHandler(factory, { legacy: 'stateless', onerror });
const node = toNodeHandler(handler, { onerror });
const checkHost = localhostHostValidation();
const checkOrigin = localhostOriginValidation();
const server = http.createServer((req, res) => {
  if (!checkHost(req, res) || !checkOrigin(req, res)) return;
  void node(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`LISTEN ${server.address().port}`));
process.on('SIGTERM', () => {
  void handler.close();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
});
