/**
 * `moor config <client>`: prints the snippet that points an MCP client at
 * moor through the daemon (stdout: the file's content alone, so it can be
 * redirected), where it belongs and any other way to add it (stderr); with
 * `--write`, merges it into that file.
 */
import { fileURLToPath } from 'node:url';
import { type Command, Option } from 'commander';
import { CLIENTS, type ClientName, clientConfig, launchOf } from '../app/client-config/clients.js';
import { snippetOf, writeClientConfig } from '../app/client-config/config-file.js';
import { resolveWorkspace } from '../app/commands/options.js';
import { complain, fail, say } from './output.js';

/** The running moor's own entry point: what the client launches. */
const MAIN_JS = fileURLToPath(new URL('./main.js', import.meta.url));

export function registerConfig(program: Command): void {
  program
    .command('config')
    .description('print (or --write) the config that points an MCP client at moor, through the daemon')
    .addArgument(program.createArgument('<client>', `the client: ${CLIENTS.join(', ')}`).choices(CLIENTS))
    .option(
      '-w, --workspace <dir>',
      'repository root (default: $MOOR_WORKSPACE, else the enclosing git root)',
    )
    .addOption(new Option('--write', 'merge it into the client’s file (the old one kept as <file>.bak)'))
    .action((client: ClientName, options: { workspace?: string; write?: boolean }) => {
      try {
        const { root } = resolveWorkspace({ workspace: options.workspace });
        const config = clientConfig(client, root, launchOf(root, MAIN_JS));
        if (!options.write) {
          process.stdout.write(snippetOf(config));
          complain(`put this in ${config.file} (or run: moor config ${client} --write)`);
          if (config.command !== undefined) complain(`or add it with: ${config.command}`);
          return;
        }
        const outcome = writeClientConfig(config);
        say(
          outcome.kind === 'created'
            ? `wrote ${config.file}`
            : `added moor to ${config.file} (the old file is ${outcome.backup})`,
        );
      } catch (error) {
        fail(error);
      }
    });
}
