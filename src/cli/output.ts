/**
 * How the CLI prints: answers to stdout, errors to stderr with a non-zero exit.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { exitCodeOf } from '../errors.js';

/** One line of an answer, on stdout. */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** One line of a problem, on stderr. */
export function complain(line: string): void {
  process.stderr.write(`moor: ${line}\n`);
}

export function printToolResult(result: CallToolResult, json: boolean): void {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  if (result.isError) {
    complain(text);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(json ? `${JSON.stringify(result.structuredContent, null, 2)}\n` : `${text}\n`);
}

export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  complain(message);
  process.exit(exitCodeOf(error));
}
