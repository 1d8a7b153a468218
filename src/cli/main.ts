#!/usr/bin/env node
/**
 * The moor command line. Parsing and printing only: every answer comes from
 * src/app, which composes the host and the packs.
 *
 * `moor stdio` (the proxy), `moor daemon run` and well-formed `moor
 * decisions …` commands are dispatched before commander and the app load:
 * the proxy must start fast, a daemon that loses the start race must exit
 * cheaply, and git hooks run decisions commands on every commit.
 */
// Each ES module costs a run its resolution and compile: only what the command needs is imported.
const argv = process.argv.slice(2);
const proxyArgs = argv[0] === 'stdio' ? (await import('../proxy/args.js')).stdioProxyArgs(argv) : undefined;
if (proxyArgs) {
  const { runProxy } = await import('../proxy/main.js');
  runProxy(proxyArgs);
} else if (isDaemonRun()) {
  const { runDaemonFromArgv } = await import('./daemon.js');
  await runDaemonFromArgv(argv.slice(2)).catch(async (e: unknown) =>
    (await import('../daemon/start-failure.js')).exitOnStartFailure(e),
  );
} else {
  await runCommand();
}

async function runCommand(): Promise<void> {
  // A hook's `moor decisions check` must not pay for commander and every command's imports.
  if (argv[0] === 'decisions' && (await decisionsFastPath())) return;
  (await import('./closed-stdout.js')).endQuietlyWhenStdoutCloses();
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    // Scripts and hooks ask for the version often: answer before commander and the app load.
    const { IDENTITY } = await import('../app/identity.js');
    process.stdout.write(`${IDENTITY.version}\n`);
    return;
  }
  await main();
}

function isDaemonRun(): boolean {
  return argv[0] === 'daemon' && argv[1] === 'run' && !argv.includes('-h') && !argv.includes('--help');
}

/**
 * The bundle loader as one CommonJS module (dist/bundle/cli-loader.cjs, with
 * the code cache and state-dir checks it uses; its builtins come by require,
 * where an ES module pays a facade for each) when it is fresh, else the
 * source module and its imports. No node:fs here: its ES facade alone loads
 * Node's streams, which a command printing through stdout.ts never needs.
 */
async function cliLoader(): Promise<typeof import('../app/bundle-loader.js')> {
  try {
    // By require, not import: an import would have Node's ES loader resolve it and lex it for exports.
    const { createRequire } = await import('node:module');
    const bundled = createRequire(import.meta.url)(
      '../bundle/cli-loader.cjs',
    ) as typeof import('../app/bundle-loader.js');
    if (bundled.loaderIsFresh()) return bundled;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
  }
  return import('../app/bundle-loader.js');
}

/** Runs `moor decisions …` without commander when the fast parser can; false when commander must. */
async function decisionsFastPath(): Promise<boolean> {
  // One CommonJS bundle (the commands and, loaded lazily inside it, the app) instead of a graph of ES
  // modules Node 20 would resolve and compile one by one.
  const { loadCliBundle } = await cliLoader();
  const entry = new URL('./decisions-commands.js', import.meta.url);
  const bundled = loadCliBundle(entry, 'cli-decisions', argv.slice(0, 2).join(' ')) as
    | typeof import('./decisions-commands.js')
    | undefined;
  const { decisionsFastPath } = bundled ?? (await import('./decisions-commands.js'));
  const command = decisionsFastPath(argv.slice(1));
  if (!command) return false;
  await command();
  return true;
}

async function main(): Promise<void> {
  const { Command } = await import('commander');
  const { IDENTITY } = await import('../app/identity.js');
  const { registerDecisions } = await import('./decisions.js');
  const { registerStdio } = await import('./stdio.js');
  const { registerDaemon } = await import('./daemon.js');
  const { registerTasks } = await import('./tasks.js');
  const { registerSessions } = await import('./sessions.js');
  const { registerConfig } = await import('./config.js');
  const { reportUsageErrorsInOneLine } = await import('./usage-errors.js');
  const { fail } = await import('./output.js');

  const program = new Command('moor')
    .version(IDENTITY.version, '-v, --version')
    .description("moor serves a repository's architecture decision records to coding agents over MCP.")
    .addHelpText(
      'after',
      `
Examples:
  moor config claude-code                  the .mcp.json entry that runs moor through the daemon
  moor stdio                               serve MCP on stdio through the daemon (started when needed)
  moor stdio --direct                      serve MCP on stdio in this process, no daemon
  moor stdio --direct -w ~/src/app         serve another repository
  moor daemon status                       what the daemon is doing
  moor decisions search "event sourcing"   ranked search
  moor decisions show 7                    decision 7 in full
  moor decisions context src/db/pool.ts    decisions governing a file
  moor decisions check                     corpus problems; exit 1 when there are any
  moor tasks list                          the daemon's durable tasks
  moor sessions list                       the daemon's sessions and their workspaces`,
    );

  registerStdio(program);
  registerDaemon(program);
  registerDecisions(program);
  registerTasks(program);
  registerSessions(program);
  registerConfig(program);

  reportUsageErrorsInOneLine(program);
  // A failure no command caught is still one line and its exit code, never a stack trace.
  await program.parseAsync(process.argv).catch((error: unknown) => fail(error));
}
