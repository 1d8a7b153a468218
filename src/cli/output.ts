/**
 * How the CLI prints: answers to stdout, errors to stderr with a non-zero exit.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { exitCodeOf } from '../errors.js';

export function printToolResult(result: CallToolResult, json: boolean): void {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  if (result.isError) {
    process.stderr.write(`moor: ${text}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(json ? `${JSON.stringify(result.structuredContent, null, 2)}\n` : `${text}\n`);
}

export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`moor: ${message}\n`);
  process.exit(exitCodeOf(error));
}
