/**
 * Subcommands declared once, as data. Commander builds help and error
 * messages from the table (command-table-commander.ts); hot commands that a
 * git hook runs are parsed from the same table with node:util's parseArgs,
 * without loading commander. The fast parser accepts only command lines that
 * commander would accept with the same result: for anything else (help, an
 * unknown or malformed flag, a value that fails its check, the wrong number
 * of arguments) it answers undefined, and the caller hands the command line
 * to commander, which reports the problem in its own words.
 */
import { parseArgs } from 'node:util';

export interface OptionSpec {
  /** Commander's syntax: `-s, --status <status>` takes a value, `--json` is a switch. */
  readonly flags: string;
  readonly description: string;
  /** Reads and checks a value; throws (a USAGE MoorError) when it is not acceptable. */
  readonly parse?: (value: string) => unknown;
  readonly choices?: readonly string[];
  readonly defaultValue?: string;
}

export interface ArgumentSpec {
  /** Commander's syntax: `<ref>` one, `<query...>` one or more, `[files...]` any number. */
  readonly name: string;
  readonly description: string;
}

/** The parsed options, keyed like commander's: `--status` → `status`. */
export type CommandOptions = Readonly<Record<string, unknown>>;

/** What a command receives: the positional value(s) as commander passes them, and the options. */
export type CommandRun<O> = (argument: string | string[] | undefined, options: O) => Promise<void>;

export interface CommandSpec<O = CommandOptions> {
  readonly name: string;
  readonly description: string;
  readonly argument?: ArgumentSpec;
  readonly options: readonly OptionSpec[];
  readonly run: CommandRun<O>;
}

/** Types a command's options for its own `run`, and erases them for the table. */
export function defineCommand<O>(spec: CommandSpec<O>): CommandSpec {
  return spec as unknown as CommandSpec;
}

interface OptionShape {
  readonly spec: OptionSpec;
  readonly long: string;
  readonly short: string | undefined;
  readonly takesValue: boolean;
  /** Commander's attribute name: `--dry-run` → `dryRun`. */
  readonly key: string;
}

function shapeOf(spec: OptionSpec): OptionShape {
  const match = /^(?:-(\w), )?--([\w-]+)( <\w+>)?$/.exec(spec.flags);
  if (!match?.[2]) throw new TypeError(`unsupported option syntax: ${spec.flags}`);
  const long = match[2];
  return {
    spec,
    long,
    short: match[1],
    takesValue: match[3] !== undefined,
    key: long.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
  };
}

/** The positional value commander would pass, or null when commander would refuse the count. */
function positionalFor(
  argument: ArgumentSpec | undefined,
  positionals: readonly string[],
): string | string[] | undefined | null {
  if (argument === undefined) return positionals.length === 0 ? undefined : null;
  const required = argument.name.startsWith('<');
  if (argument.name.endsWith('...>') || argument.name.endsWith('...]'))
    return required && positionals.length === 0 ? null : [...positionals];
  if (positionals.length > 1 || (required && positionals.length === 0)) return null;
  return positionals[0];
}

/**
 * `argv` (after the subcommand's name) parsed as commander would parse it
 * for `spec`, or undefined when commander should see it.
 */
export function parseCommandLine(
  spec: CommandSpec,
  argv: readonly string[],
): { readonly argument: string | string[] | undefined; readonly options: CommandOptions } | undefined {
  const shapes = spec.options.map(shapeOf);
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const shape of shapes)
    config[shape.long] = {
      type: shape.takesValue ? 'string' : 'boolean',
      ...(shape.short === undefined ? {} : { short: shape.short }),
    };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  const options: Record<string, unknown> = {};
  for (const shape of shapes) {
    const value = parsed.values[shape.long];
    if (value === undefined) {
      if (shape.spec.defaultValue !== undefined) options[shape.key] = shape.spec.defaultValue;
    } else if (typeof value !== 'string') {
      options[shape.key] = value;
    } else if (shape.spec.choices !== undefined && !shape.spec.choices.includes(value)) {
      return undefined;
    } else if (shape.spec.parse === undefined) {
      options[shape.key] = value;
    } else {
      try {
        options[shape.key] = shape.spec.parse(value);
      } catch {
        return undefined;
      }
    }
  }
  const argument = positionalFor(spec.argument, parsed.positionals);
  if (argument === null) return undefined;
  return { argument, options };
}
