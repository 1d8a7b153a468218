/**
 * The SDK validates a request's params against its wire schema before the
 * handler runs, and reports a failure as the ZodError's message: a
 * pretty-printed JSON array of issues, thrown as a plain Error (answered
 * -32603, as if moor had failed) or, on some paths, as -32602 with the dump
 * after a prefix. A client learns nothing from either but that zod exists.
 * Here such a failure becomes -32602 with one line naming the first bad
 * field and what was wrong with it; any other error is left as it is.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors.js';

interface Issue {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
  readonly errors?: ReadonlyArray<ReadonlyArray<Issue>>;
}

/** The ProtocolError to answer for a schema failure, or `error` unchanged when it is not one. */
export function asInvalidParams(method: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (code !== undefined && code !== JsonRpcCode.InvalidParams) return error;
  const issues = issuesIn(error.message);
  if (issues === undefined) return error;
  const [first] = issues;
  if (first === undefined) return error;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new ProtocolError(
    JsonRpcCode.InvalidParams,
    `Invalid params for ${method}: ${describe(first)}${more}`,
  );
}

/** The issues of a ZodError message, optionally after an "Invalid …: " prefix; undefined for anything else. */
function issuesIn(message: string): Issue[] | undefined {
  const start = message.indexOf('[');
  if (start < 0 || (start > 0 && !/^Invalid [^\n]*: $/.test(message.slice(0, start)))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.slice(start));
  } catch {
    return undefined;
  }
  return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : undefined;
}

function isIssue(value: unknown): value is Issue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { path?: unknown; message?: unknown };
  return Array.isArray(v.path) && typeof v.message === 'string';
}

/** "params.ref: expected object, received undefined": a union is described by its first branch's first issue. */
function describe(issue: Issue, prefix: ReadonlyArray<string | number> = []): string {
  const path = [...prefix, ...issue.path];
  const branch = issue.errors?.find((b) => b.length > 0)?.[0];
  if (branch !== undefined && isIssue(branch)) return describe(branch, path);
  const where = path.length === 0 ? 'params' : fieldName(path);
  const what = issue.message.replace(/^Invalid input: /, '').replace(/\s+/g, ' ');
  return `${where}: ${what}`;
}

function fieldName(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out.startsWith('params') ? out : `params.${out}`;
}
