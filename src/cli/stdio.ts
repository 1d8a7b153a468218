/**
 * `moor stdio`: what MCP clients launch. By default a thin proxy to the
 * user's daemon (main.ts dispatches it before loading commander; this is the
 * fallback path); `--direct` serves in this process with no daemon.
 */
import type { Command } from 'commander';
import type { WorkspaceOptions } from '../app/commands/options.js';
import { MoorError } from '../errors.js';
import { fail } from './output.js';

export function registerStdio(program: Command): void {
  program
    .command('stdio')
    .description(
      'serve MCP on stdin/stdout (both protocol eras) through the daemon, or in-process with --direct',
    )
    .option('--direct', 'serve in this process, with no daemon')
    .option(
      '-w, --workspace <dir>',
      'repository root (default: $MOOR_WORKSPACE, else the enclosing git root)',
    )
    .option('-d, --decisions <dir>', 'decisions folder (default: .adr-dir, docs/adr, docs/decisions, …)')
    .option(
      '--poll-ms <ms>',
      'how often the proxy re-reads the tool and resource lists when the daemon pushes no changes (default: $MOOR_PROXY_POLL_MS, else 30000; 0: never)',
    )
    .option(
      '--pack <name>',
      'with --direct: serve this pack besides decisions (repeatable; conformance = the MCP conformance fixtures, tests only)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (options: WorkspaceOptions & { direct?: boolean; pack?: string[]; pollMs?: string }) => {
      if (!options.direct && options.pack !== undefined) {
        fail(
          new MoorError(
            'OPTION_CONFLICT',
            '--pack needs --direct: the daemon serves the packs given to `moor daemon run --pack`',
          ),
        );
      }
      if (!options.direct) {
        const [{ runProxy }, { parsePollMs }] = await Promise.all([
          import('../proxy/main.js'),
          import('../proxy/args.js'),
        ]);
        const pollMs = options.pollMs === undefined ? undefined : parsePollMs(options.pollMs);
        if (options.pollMs !== undefined && pollMs === undefined)
          fail(new MoorError('USAGE', '--poll-ms takes a whole number of milliseconds'));
        runProxy({ workspace: options.workspace, decisions: options.decisions, pollMs });
        return;
      }
      try {
        const [{ serveDirect }, { resolveWorkspace }] = await Promise.all([
          import('../app/commands/direct.js'),
          import('../app/commands/options.js'),
        ]);
        const log = (line: string) => process.stderr.write(`${line}\n`);
        serveDirect(resolveWorkspace(options), log, options.pack);
      } catch (error) {
        fail(error);
      }
    });
}
