/**
 * `moor stdio`: what MCP clients launch.
 */
import type { Command } from 'commander';
import { serveDirect } from '../app/direct.js';
import { resolveWorkspace, type WorkspaceOptions } from '../app/options.js';
import { fail } from './output.js';

export function registerStdio(program: Command): void {
  program
    .command('stdio')
    .description('serve MCP on stdin/stdout (both protocol eras)')
    .option('--direct', 'serve in this process, with no daemon')
    .option(
      '-w, --workspace <dir>',
      'repository root (default: $MOOR_WORKSPACE, else the enclosing git root)',
    )
    .option('-d, --decisions <dir>', 'decisions folder (default: .adr-dir, docs/adr, docs/decisions, …)')
    .action((options: WorkspaceOptions & { direct?: boolean }) => {
      try {
        const log = (line: string) => process.stderr.write(`${line}\n`);
        serveDirect(resolveWorkspace(options), log);
      } catch (error) {
        fail(error);
      }
    });
}
