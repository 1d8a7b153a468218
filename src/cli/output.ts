/**
 * How the CLI prints: answers to stdout, errors to stderr with a non-zero exit.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { exitCodeOf } from '../errors.js';
import { writeErr, writeOut } from './stdout.js';
import { visibleText } from './visible-text.js';

/** One line of an answer, on stdout, control characters shown visibly. */
export function say(line: string): void {
  writeOut(`${visibleText(line)}\n`);
}

/** One line of a problem, on stderr: errors quote refs and paths, so they are made visible too. */
export function complain(line: string): void {
  writeErr(`moor: ${visibleText(line)}\n`);
}

export function printToolResult(result: CallToolResult, json: boolean): void {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  if (result.isError) {
    complain(text);
    process.exitCode = 1;
    return;
  }
  writeOut(json ? `${JSON.stringify(result.structuredContent, null, 2)}\n` : `${visibleText(text)}\n`);
}

export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  complain(message);
  process.exit(exitCodeOf(error));
}
