/**
 * The pack API: how a tool pack declares what it serves. Definitions are plain
 * data plus handlers; the host turns them into wire shapes once at start
 * (catalog.ts), so binding them to a connection or an HTTP request is cheap.
 *
 * A pack owns a per-workspace state `S` (for the decisions pack: the loaded
 * corpus). The host decides which workspace a call runs in and hands the
 * handler that workspace's state; packs never know about daemons, sockets or
 * HTTP.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';

/** What a tool handler returns: the structured payload and its one text rendering. */
export interface ToolOutput<O> {
  readonly structured: O;
  readonly text: string;
}

export interface ToolContext<S> {
  /** The pack's state for the workspace this call runs in. */
  readonly state: S;
  readonly workspaceRoot: string;
  /** Fires when the client cancels or the connection goes away. */
  readonly signal: AbortSignal;
  /** The caller's session key, when the hop carries one. */
  readonly sessionKey: string | undefined;
  /** Reports progress; a no-op when the caller asked for none. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface ToolDefinition<S, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  /** Throw ToolError for an expected failure; anything else is reported as an internal error. */
  handler(args: z.output<I>, ctx: ToolContext<S>): ToolOutput<z.output<O>> | Promise<ToolOutput<z.output<O>>>;
}

export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
}

export interface ResourceContent {
  readonly uri: string;
  readonly mimeType: string;
  readonly text: string;
}

/** A family of resources under one URI scheme, listed and read through the pack's state. */
export interface ResourceFamily<S> {
  /** URI template advertised in resources/templates/list (RFC 6570). */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  /** True when this family answers for `uri`. */
  owns(uri: string): boolean;
  list(state: S): readonly ResourceEntry[];
  /** Returns undefined when the resource does not exist. */
  read(state: S, uri: string): ResourceContent | undefined;
}

export interface WorkspaceInfo {
  readonly root: string;
}

export interface Pack<S> {
  readonly name: string;
  /** How an agent should use this pack's tools; joined into the server instructions. */
  readonly instructions: string;
  readonly tools: readonly ToolDefinition<S>[];
  readonly resources: readonly ResourceFamily<S>[];
  /** Opens the pack's state for one workspace (e.g. loads a corpus). */
  open(workspace: WorkspaceInfo): S;
  close?(state: S): void;
}

/** Typed helper: keeps a tool's handler checked against its own schemas. */
export function defineTool<S, I extends z.ZodType, O extends z.ZodType>(
  tool: ToolDefinition<S, I, O>,
): ToolDefinition<S> {
  return tool as unknown as ToolDefinition<S>;
}

export function definePack<S>(pack: Pack<S>): Pack<S> {
  return pack;
}

/**
 * Forgets a pack's state type so packs of different states can sit in one
 * catalog. Safe because the host only ever hands a pack the state its own
 * open() produced (Binding.stateOf is keyed by pack).
 */
export function erasePack<S>(pack: Pack<S>): Pack<unknown> {
  return pack as unknown as Pack<unknown>;
}
