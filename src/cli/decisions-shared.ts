/**
 * What the `moor decisions …` subcommands share: the workspace options, the
 * lazily loaded app, and running one tool for a command.
 */
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ResolvedWorkspace, WorkspaceOptions } from '../app/commands/options.js';
import { askDaemonOneShot } from '../app/control/one-shot-ask.js';
import { MoorError } from '../errors.js';
import type { OneShotTool } from '../protocol/one-shot-hello.js';
import { resolveWorkspaceRoot } from '../protocol/workspace-root.js';
import type { OptionSpec } from './command-table.js';
import { fail, printToolResult } from './output.js';

export interface CheckFinding {
  readonly path: string;
  readonly line: number | null;
  readonly kind: string;
  readonly message: string;
}

export interface CommonOptions extends WorkspaceOptions {
  readonly json?: boolean;
}

export const COMMON: readonly OptionSpec[] = [
  {
    flags: '-w, --workspace <dir>',
    description: 'repository root (default: $MOOR_WORKSPACE, else the enclosing git root)',
  },
  {
    flags: '-d, --decisions <dir>',
    description: 'decisions folder (default: .adr-dir, docs/adr, docs/decisions, …)',
  },
  { flags: '--json', description: 'print the structured answer as JSON' },
];

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new MoorError('USAGE', 'expected a positive whole number');
  return n;
}

/**
 * The app (the decisions pack's tools, in-process) loads only when a command
 * runs locally: a daemon's answer needs none of it. Inside the CLI's bundle
 * this import is a lazily run part of the same file.
 */
export async function app() {
  const loaded = await import('../app/cli-app.js');
  return {
    ...loaded,
    resolveWorkspace: (o: WorkspaceOptions): ResolvedWorkspace => loaded.resolveWorkspace(o),
  };
}

/**
 * A running daemon's answer to one read-only tool call for these options, or
 * undefined (no daemon of this build, or a workspace the command itself must
 * report on): the caller then runs the tool in-process.
 */
export async function daemonAnswer(
  options: WorkspaceOptions,
  tool: OneShotTool,
  args: Record<string, unknown>,
): Promise<CallToolResult | undefined> {
  let root: string;
  try {
    root = resolveWorkspaceRoot({ workspace: options.workspace, env: process.env, cwd: process.cwd() });
  } catch {
    return undefined;
  }
  const decisions = options.decisions ? path.resolve(root, options.decisions) : undefined;
  return askDaemonOneShot({ workspace: root, ...(decisions ? { decisions } : {}), tool, arguments: args });
}

export async function run(
  options: CommonOptions,
  tool: OneShotTool,
  args: Record<string, unknown>,
): Promise<void> {
  try {
    const answered = await daemonAnswer(options, tool, args);
    if (answered !== undefined) {
      printToolResult(answered, options.json === true);
      return;
    }
    const { callToolLocally, resolveWorkspace } = await app();
    printToolResult(await callToolLocally(resolveWorkspace(options), tool, args), options.json === true);
  } catch (error) {
    fail(error);
  }
}

/** A YYYY-MM-DD date, as the tools take it. */
export function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw new MoorError('USAGE', `expected a date as YYYY-MM-DD, not "${value}"`);
  return value;
}

/** A whole number of days, zero or more. */
export function days(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new MoorError('USAGE', 'expected a whole number of days (0 or more)');
  return n;
}
