#!/usr/bin/env node
/**
 * The `moor` binary (package.json's bin). A CommonJS file, because an ES
 * module as the entry makes Node start its ES loader (compiling its internal
 * modules, resolving and linking asynchronously), about 4 ms a git hook's
 * `moor decisions …` would pay on every run before doing anything.
 *
 * A well-formed `moor decisions …` runs from the CommonJS bundle right here
 * (dist/bundle/cli-loader.cjs loads dist/bundle/cli-decisions.cjs); every
 * other command, a decisions command the fast parser declines (help, a usage
 * error) and a build without fresh bundles go to main.js, which decides as it
 * always has. The loader keeps a bundle it has run, so main.js asking again
 * costs nothing.
 */
import path = require('node:path');
import url = require('node:url');

type BundleLoader = typeof import('../app/bundle-loader.js', { with: { 'resolution-mode': 'import' }});
type DecisionsCommands = typeof import('./decisions-commands.js', { with: { 'resolution-mode': 'import' }});

const argv = process.argv.slice(2);

/** The bundled command for `argv` when the bundles are fresh and the fast parser takes it; else undefined. */
function bundledDecisionsCommand(): (() => Promise<void>) | undefined {
  let loader: BundleLoader;
  try {
    loader = require('../bundle/cli-loader.cjs') as BundleLoader;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  if (!loader.loaderIsFresh()) return undefined;
  const entry = url.pathToFileURL(path.join(__dirname, 'decisions-commands.js'));
  const bundled = loader.loadCliBundle(entry, 'cli-decisions', argv.slice(0, 2).join(' ')) as
    | DecisionsCommands
    | undefined;
  return bundled?.decisionsFastPath(argv.slice(1));
}

async function run(): Promise<void> {
  const command = argv[0] === 'decisions' ? bundledDecisionsCommand() : undefined;
  if (command === undefined) {
    await import('./main.js');
    return;
  }
  await command();
  // Everything is written (synchronously, on file descriptors 1 and 2): end now, with the exit code the
  // command set, rather than after the event loop has waited out V8's background work (2-4 ms a run).
  process.exit();
}

// A failure escapes as main.js's would: Node prints it and exits 1.
void run();
