/**
 * Which build of moor a process runs: its version, where it is installed and
 * when it was built. Two processes with the same stamp render every answer
 * alike, so a one-shot command may print what a daemon with its stamp
 * answered; a rebuilt or upgraded moor has another stamp.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The CLI's entry, as this module finds it from dist/protocol and as the
 * daemon's bundle finds it from dist/bundle (the same depth): tsc rewrites it
 * on every build, so its modification time is the build's.
 */
const CLI_ENTRY = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** `version@path#mtime` of this build, or undefined when its entry cannot be read (running from sources). */
export function buildStamp(version: string): string | undefined {
  try {
    const real = fs.realpathSync(CLI_ENTRY);
    return `${version}@${real}#${fs.statSync(real).mtimeMs}`;
  } catch {
    return undefined;
  }
}
