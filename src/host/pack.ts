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
import type {
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  InputRequest,
  InputResponse,
  LoggingLevel,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

/** What a tool handler returns: the structured payload and its one text rendering. */
export interface ToolOutput<O> {
  readonly structured: O;
  readonly text: string;
}

/**
 * A tool result the tool shapes itself (images, audio, embedded resources,
 * several blocks, `isError`): for tools without an output schema. Made with
 * toolResult().
 */
export interface RawToolResult {
  readonly raw: CallToolResult;
}

export function toolResult(result: CallToolResult): RawToolResult {
  return { raw: result };
}

/** The lists a pack may announce as changed (subscriptions/listen, legacy list_changed). */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** What every handler (tool, prompt) may ask of the host besides its state. */
export interface HostContext {
  /**
   * Sends a log message to the client (notifications/message). Dropped
   * unless the client asked for logs at this level: 2026-07-28 requests
   * carry a `logLevel` in their envelope (none: no logs at all), 2025
   * connections use logging/setLevel.
   */
  log(level: LoggingLevel, data: unknown): Promise<void>;
  /** The client's declared capabilities (the request envelope, or the 2025 initialize); undefined when unknown. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Announces that a list changed (delivered to listen streams and 2025 connections). */
  listChanged(list: ListKind): void;
  /** Announces that a resource's content changed (delivered to its subscribers). */
  resourceUpdated(uri: string): void;
}

export interface ToolContext<S> {
  /** The pack's state for the workspace this call runs in. */
  readonly state: S;
  readonly workspaceRoot: string;
  /** Fires when the client cancels or the connection goes away. */
  readonly signal: AbortSignal;
  /** The caller's session key, when the hop carries one. */
  readonly sessionKey: string | undefined;
  /** Logging, client capabilities and change announcements (see HostContext). */
  readonly host: HostContext;
  /** Reports progress; a no-op when the caller asked for none. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Asks the client for input (elicitation-shaped requests, keyed by name)
   * and resolves with the responses to every key. How it travels is the
   * host's business: `tasks/update` inside a task, a multi-round-trip
   * `input_required` result on a synchronous 2026-07-28 call (the handler is
   * then run again from the start, so everything before the last question
   * must be free of side effects), elicitation on a 2025 connection. Throws
   * a ToolError where no channel exists.
   */
  requestInput(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, InputResponse>>;
}

/** How a tool runs as a durable task (the io.modelcontextprotocol/tasks extension). */
export interface ToolTaskOptions {
  /** 'optional': a task when the request declares the extension; 'required': only ever as a task. */
  readonly eligibility: 'optional' | 'required';
  /**
   * 'abort': tasks/cancel aborts the work's signal and the task ends cancelled;
   * 'detach': tasks/cancel reports cancelled at once, the work runs on and its result is dropped.
   */
  readonly cancellation: 'abort' | 'detach';
  /**
   * Input to gather before the task exists (multi-round-trip rounds on the
   * tools/call itself); the task's handler then gets these keys answered at
   * once from requestInput.
   */
  inputBeforeTask?(args: unknown): Readonly<Record<string, InputRequest>> | undefined;
}

export interface ToolDefinition<S, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  /**
   * The input schema as sent in tools/list, verbatim (any JSON Schema
   * 2020-12, `$schema`, `$defs` and all), instead of the one derived from
   * `input`. `input` still validates the arguments.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  /**
   * A quick check that needs no schema built: the arguments exactly as
   * `input` would give them back when they are certainly valid, else
   * undefined, and `input` decides (and words any refusal). Whatever it
   * accepts, `input` must accept with the same result: a tool that has one
   * keeps a property test saying so.
   */
  readonly accept?: (args: Readonly<Record<string, unknown>>) => z.output<I> | undefined;
  /** The structured output; absent for tools that shape their own results (toolResult()). */
  readonly output?: O;
  readonly annotations: ToolAnnotations;
  /** Present when the tool may run as a durable task. */
  readonly task?: ToolTaskOptions;
  /**
   * The tool writes into the workspace: it is listed for a session only while
   * its active workspace allows writes, and refused in one that does not.
   */
  readonly writes?: boolean;
  /**
   * The result is a function of the arguments and the pack's state version
   * (Pack.version) alone: nothing else it reads (no clock, no session, no
   * file outside what the version covers). A served path may then answer a
   * repeated call from a memo of its last answers for that version.
   */
  readonly pure?: boolean;
  /** Throw ToolError for an expected failure; anything else is reported as an internal error. */
  handler(
    args: z.output<I>,
    ctx: ToolContext<S>,
  ): ToolOutput<z.output<O>> | RawToolResult | Promise<ToolOutput<z.output<O>> | RawToolResult>;
}

export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
}

export type ResourceContent =
  | { readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly uri: string; readonly mimeType: string; readonly blob: string };

/** Completion candidates for one argument: the values matching what the user typed so far. */
export type Completer = (value: string, context: Readonly<Record<string, string>>) => readonly string[];

/** A family of resources under one URI scheme, listed and read through the pack's state. */
export interface ResourceFamily<S> {
  /** URI template advertised in resources/templates/list (RFC 6570); absent for a family of fixed resources. */
  readonly uriTemplate?: string;
  /** Completers for the template's variables (completion/complete on ref/resource). */
  readonly complete?: Readonly<Record<string, Completer>>;
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

/**
 * An Agent Skill the pack publishes through the skills extension
 * (`skills/list`, `skills/get`; files read with `resources/read`). The host
 * writes its `SKILL.md` from these fields and serves it at
 * `skill://<pack>/<name>/SKILL.md`, never in tools/list or resources/list.
 */
export interface SkillDefinition {
  /** 1-64 lowercase letters, digits and single hyphens; also the skill's folder name. */
  readonly name: string;
  /** What the skill is for and when to use it (1-1024 characters): hosts show it before loading the skill. */
  readonly description: string;
  /** The Markdown after the `SKILL.md` frontmatter. */
  readonly body: string;
  /** Further files, by path under the skill's folder (`references/relations.md`). */
  readonly files?: Readonly<Record<string, string>>;
}

/** How a pack state announces its workspace's changes (delivered to the connections bound to it). */
export interface RoomAnnouncer {
  listChanged(list: ListKind): void;
  resourceUpdated(uri: string): void;
}

export interface WorkspaceInfo {
  readonly root: string;
  /** Announces this workspace's changes; absent where nobody could hear them (one-shot CLI calls). */
  readonly announce?: RoomAnnouncer;
}

export interface Pack<S> {
  readonly name: string;
  /**
   * 'workspace' (default): its tools run in one workspace, and the host gives
   * each an optional `workspace` argument naming a connected one. 'session':
   * its tools act on the caller's session itself (the workspace tools).
   */
  readonly scope?: 'workspace' | 'session';
  /** How an agent should use this pack's tools; joined into the server instructions. */
  readonly instructions: string;
  readonly tools: readonly ToolDefinition<S>[];
  readonly resources: readonly ResourceFamily<S>[];
  readonly prompts?: readonly PromptDefinition<S>[];
  /** Skills about using this pack, served through the skills extension; they need no workspace state. */
  readonly skills?: readonly SkillDefinition[];
  /** Opens the pack's state for one workspace (e.g. loads a corpus). */
  open(workspace: WorkspaceInfo): S;
  close?(state: S): void;
  /**
   * A token that changes whenever anything a pure tool of the pack reads may
   * have changed (for the decisions pack, the corpus fingerprint); undefined
   * when the state cannot vouch for one now (nothing is memoized then).
   */
  version?(state: S): string | undefined;
}

/**
 * A value built on first use and kept. Tools build their zod schemas with
 * it: a one-shot CLI command calls one tool, and building every tool's input
 * and output schemas when the pack loads cost it more than its answer.
 */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/** Typed helper: keeps a tool's handler checked against its own schemas. */
export function defineTool<S, I extends z.ZodType, O extends z.ZodType>(
  tool: ToolDefinition<S, I, O>,
): ToolDefinition<S> {
  return tool as unknown as ToolDefinition<S>;
}

/** What a prompt handler gets: the workspace state and the host (no progress: prompts answer at once). */
export interface PromptContext<S> {
  readonly state: S;
  readonly workspaceRoot: string;
  readonly signal: AbortSignal;
  readonly host: HostContext;
  /** As ToolContext.requestInput: the prompt is built again from the start once answered. */
  requestInput: ToolContext<S>['requestInput'];
}

/**
 * A prompt: arguments as a zod object of strings (their `.describe()` text
 * and optionality become the advertised arguments), a builder for the
 * messages, and optional completers per argument.
 */
export interface PromptDefinition<S, A extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** A z.object of string fields; absent when the prompt takes none. */
  readonly args?: A;
  readonly complete?: Readonly<Record<string, Completer>>;
  handler(args: z.output<A>, ctx: PromptContext<S>): GetPromptResult | Promise<GetPromptResult>;
}

export function definePrompt<S, A extends z.ZodType>(prompt: PromptDefinition<S, A>): PromptDefinition<S> {
  return prompt as unknown as PromptDefinition<S>;
}

export function definePack<S>(pack: Pack<S>): Pack<S> {
  return pack;
}

/**
 * Forgets a pack's state type so packs of different states can sit in one
 * catalog. Safe because the host only ever hands a pack the state its own
 * open() produced (CallWorkspace.stateOf is keyed by pack).
 */
export function erasePack<S>(pack: Pack<S>): Pack<unknown> {
  return pack as unknown as Pack<unknown>;
}
