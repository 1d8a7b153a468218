// The HTTP anchor ceiling: node:http, read the POST body, JSON.parse it, answer a fixed
// tools/call-shaped JSON-RPC result. No MCP semantics at all (perf-anchors.md "raw").
import http from 'node:http';

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      msg = null;
    }
    if (req.method !== 'POST' || !msg || msg.jsonrpc !== '2.0') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: msg.id,
      result: {
        content: [{ type: 'text', text: String(msg.params?.arguments?.text ?? '') }],
        resultType: 'complete',
      },
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`LISTEN ${server.address().port}`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
});
