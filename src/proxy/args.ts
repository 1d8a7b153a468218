/**
 * Recognizes `moor stdio [--workspace DIR] [--decisions DIR] [--poll-ms MS]` (the proxy)
 * without commander, so the proxy starts without loading it. Anything else
 * (--direct, --help, an unknown option) returns undefined and goes through the
 * full command line.
 */

export interface ProxyArgs {
  readonly workspace?: string | undefined;
  readonly decisions?: string | undefined;
  /** How often to poll the tool and resource lists when no listen covers them (0: never). */
  readonly pollMs?: number | undefined;
}

export function stdioProxyArgs(argv: readonly string[]): ProxyArgs | undefined {
  if (argv[0] !== 'stdio') return undefined;
  let workspace: string | undefined;
  let decisions: string | undefined;
  let pollMs: number | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    if (name === '-w' || name === '--workspace' || name === '-d' || name === '--decisions') {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
      if (name === '-w' || name === '--workspace') workspace = value;
      else decisions = value;
      continue;
    }
    if (name === '--poll-ms') {
      pollMs = parsePollMs(inline ?? argv[++i]);
      if (pollMs === undefined) return undefined;
      continue;
    }
    return undefined;
  }
  return { workspace, decisions, ...(pollMs === undefined ? {} : { pollMs }) };
}

/** A poll interval in milliseconds: a whole number ≥ 0; undefined for anything else. */
export function parsePollMs(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
