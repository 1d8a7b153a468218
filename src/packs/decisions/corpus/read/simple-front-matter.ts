/**
 * Front matter as most records write it, read without a YAML parser: one
 * `key: value` per line, where a value is a plain word or phrase, a quoted
 * string without escapes, a `[flow, list]` of those, nothing (null), or a
 * block list of `- item` lines below the key. js-yaml allocates several
 * times the text it reads, and on a cold load of 10,000 records that was a
 * tenth of the time.
 *
 * It answers only when certain to give exactly what js-yaml's CORE_SCHEMA
 * load gives (the same keys in the same order, the same strings, arrays and
 * nulls); anything it does not recognise, or any scalar that the core schema
 * could read as a number, boolean or null, returns undefined and the caller
 * uses js-yaml, which also words every error. A property test holds the two
 * together.
 */

const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;
/**
 * A plain scalar that is certainly a string in the core schema: starts with
 * a letter and holds nothing YAML reads specially (in a flow list, no commas
 * or brackets either).
 */
const PLAIN = /^[A-Za-z][^:#\t"'`{}[\]|>&*!%@]*$/;
const FLOW_SPECIAL = /[,[\]{}]/;
/** A date as records write it: not an int or a float in the core schema, so a string. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Words the core schema reads as null or a boolean. */
const RESERVED = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** A scalar after `key: ` or in a list; undefined when not certainly a plain string. */
function scalar(raw: string, inFlow: boolean): string | undefined {
  if (raw === '' || raw !== raw.trim()) return undefined;
  const first = raw.charCodeAt(0);
  if (first === 34 /* " */ || first === 39 /* ' */) {
    const quote = raw[0] as string;
    if (raw.length < 2 || raw[raw.length - 1] !== quote) return undefined;
    const inner = raw.slice(1, -1);
    // No escapes, no quote inside, nothing a line fold would change.
    if (inner.includes(quote) || inner.includes('\\') || inner.includes('\t')) return undefined;
    return inner;
  }
  if (DAY.test(raw)) return raw;
  if (!PLAIN.test(raw) || RESERVED.has(raw)) return undefined;
  // " #" starts a comment, ": " a mapping.
  if (raw.includes(' #') || raw.includes(': ') || raw.endsWith(':')) return undefined;
  if (inFlow && (FLOW_SPECIAL.test(raw) || raw.includes('  '))) return undefined;
  return raw;
}

function flowList(raw: string): string[] | undefined {
  const inner = raw.slice(1, -1).trim();
  if (inner === '') return [];
  const out: string[] = [];
  for (const part of inner.split(',')) {
    const item = scalar(part.trim(), true);
    if (item === undefined) return undefined;
    out.push(item);
  }
  return out;
}

/**
 * The mapping `yaml` holds, or undefined when it is not in the simple form
 * (the caller then parses it with js-yaml).
 */
export function readSimpleFrontMatter(yaml: string): Record<string, unknown> | undefined {
  const lines = yaml.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const key = line.slice(0, colon);
    if (!KEY.test(key) || seen.has(key)) return undefined;
    seen.add(key);
    const rest = line.slice(colon + 1);
    i++;
    if (rest === '') {
      // Nothing after the key: null, or a block list on the lines below.
      const items: string[] = [];
      let indent = -1;
      while (i < lines.length && /^ *- /.test(lines[i] as string)) {
        const item = lines[i] as string;
        const dash = item.indexOf('-');
        if (indent === -1) indent = dash;
        if (dash !== indent) return undefined;
        const value = scalar(item.slice(dash + 2), false);
        if (value === undefined) return undefined;
        items.push(value);
        i++;
      }
      out[key] = indent === -1 ? null : items;
      continue;
    }
    if (rest[0] !== ' ' || rest[1] === ' ') return undefined;
    const raw = rest.slice(1);
    if (raw.startsWith('[')) {
      if (!raw.endsWith(']')) return undefined;
      const list = flowList(raw);
      if (list === undefined) return undefined;
      out[key] = list;
      continue;
    }
    const value = scalar(raw, false);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  return out;
}
