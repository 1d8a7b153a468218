/**
 * The pieces of the decisions tools' quick argument checks (ToolDefinition
 * `accept`): each says yes only to what the tool's zod schema certainly
 * accepts unchanged, so a call with ordinary arguments, a one-shot command's
 * above all, needs no schema built. Anything doubtful (a key given as
 * undefined, a value of another type, a bound crossed) is left to the schema,
 * which words the refusal. test/packs/decisions/tools/quick-accept.test.ts
 * holds every tool's check to its schema.
 */

export type Args = Readonly<Record<string, unknown>>;

/** Only these keys, each with a value that is not undefined (a schema may keep an explicit undefined). */
export function onlyKeys(args: Args, allowed: readonly string[]): boolean {
  for (const key of Object.keys(args)) if (!allowed.includes(key) || args[key] === undefined) return false;
  return true;
}

/** A string of `min`..`max` UTF-16 units and at most `bytes` UTF-8 bytes, as z.string().min().max() and maxBytes() count. */
export function isText(
  value: unknown,
  min: number,
  max: number,
  bytes = Number.POSITIVE_INFINITY,
): value is string {
  return (
    typeof value === 'string' &&
    value.length >= min &&
    value.length <= max &&
    (bytes === Number.POSITIVE_INFINITY || Buffer.byteLength(value, 'utf8') <= bytes)
  );
}

/** A whole number within [min, max], as z.number().int().min().max() takes it. */
export function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}
