/**
 * `npm run bench` drives moor's HTTP endpoint through bench/servers/http-moor.mjs,
 * which composes the built modules by hand. When their API moves, the bench dies
 * halfway through its run; this starts the server in each arm the bench uses and
 * asks it the bench's own requests (bench/http.mjs's workload), so it cannot.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: an untyped .mjs of the bench; its workload is what the bench sends.
import { workload } from '../../bench/http.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function start(args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['bench/servers/http-moor.mjs', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const port = /LISTEN (\d+)/.exec(stdout)?.[1];
      if (port !== undefined) resolve(Number(port));
    });
    child.once('exit', (code) =>
      reject(new Error(`http-moor.mjs ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

type Workload = { headers: Record<string, string>; body: unknown };

async function call(port: number, era: 'modern' | 'legacy', tool: string, args: object): Promise<unknown> {
  const { headers, body } = workload(era, tool, args) as Workload;
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  // The SDK path answers a 2025-era call as one SSE event; the lean path as plain JSON.
  const data = text.startsWith('event:') ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return JSON.parse(data ?? 'null');
}

describe('the bench HTTP server', () => {
  for (const args of [[], ['--no-metrics'], ['--no-lean']]) {
    it(`answers the bench's calls in both eras (${args.join(' ') || 'metrics on, lean'})`, async () => {
      const port = await start(args);
      for (const era of ['modern', 'legacy'] as const) {
        const echoed = (await call(port, era, 'echo', { text: 'hello' })) as {
          result: { structuredContent: { text: string } };
        };
        expect(echoed.result.structuredContent).toEqual({ text: 'hello' });
        const got = (await call(port, era, 'get_decision', { ref: '3' })) as {
          result: { structuredContent: { number: number }; isError?: boolean };
        };
        expect(got.result.isError).toBeUndefined();
        expect(got.result.structuredContent.number).toBe(3);
      }
    });
  }
});
