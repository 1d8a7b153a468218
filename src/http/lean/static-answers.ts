/**
 * The lean path's primed answers and their per-caller variants. tools/list
 * varies by caller when the catalog has write tools (they are listed only
 * for sessions whose active workspace allows writes), so besides the primed
 * full list the lean path keeps a read-only one: the primed answer with
 * those tools taken out. It is derived once, at priming, never per request.
 */

/** A primed SDK answer: the body around the request id. */
export interface StaticAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly before: string;
  readonly after: string;
}

/**
 * `answer` without the tools named in `names`, or undefined when that cannot
 * be done byte-exactly: the variant is kept only when re-encoding the primed
 * JSON gives its bytes back unchanged, so it is what the SDK would write.
 */
export function withoutTools(
  answer: StaticAnswer,
  marker: string,
  names: ReadonlySet<string>,
): StaticAnswer | undefined {
  const text = answer.before + marker + answer.after;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}') + 1;
  const json = text.slice(start, end);
  let parsed: { result?: { tools?: Array<{ name?: unknown }> } };
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  const tools = parsed.result?.tools;
  if (JSON.stringify(parsed) !== json || !Array.isArray(tools)) return undefined;
  parsed.result = { ...parsed.result, tools: tools.filter((t) => !names.has(t.name as string)) };
  const variant = text.slice(0, start) + JSON.stringify(parsed) + text.slice(end);
  const at = variant.indexOf(marker);
  if (at < 0 || variant.indexOf(marker, at + 1) >= 0) return undefined;
  return { ...answer, before: variant.slice(0, at), after: variant.slice(at + marker.length) };
}
