/**
 * A daemon that cannot start says so once: one line on stderr (which is
 * daemon.log for a detached daemon), a fatal line in the log when it has one,
 * a StartRefusal record when starting again would fail the same way (once
 * the state dir is known to be usable), and the registry's exit code. Never
 * a stack trace for a failure moor expected.
 */
import { exitCodeOf, isMoorError, type MoorError } from '../errors.js';
import { writeStartRefusal } from '../protocol/start-refusal.js';

/** A start failure that needs the user: a non-retryable registry error (corrupt store, unusable state dir). */
export function isStartRefusal(error: unknown): error is MoorError {
  return isMoorError(error) && !error.spec.retryable;
}

/** Leaves the refusal record for a proxy waiting on this daemon (only for refusals). */
export function recordStartRefusal(refusalFile: string, error: unknown, pid: number = process.pid): void {
  if (isStartRefusal(error))
    writeStartRefusal(refusalFile, { pid, code: error.code, message: error.message });
}

/**
 * The exit code of a daemon that could not start: 4 for a refusal (a bad
 * workspace, state dir or store: starting again unchanged fails the same way),
 * 2 for a command line it cannot act on, else the registry's code.
 */
export function startExitCode(error: unknown): number {
  const code = exitCodeOf(error);
  return code === EXIT_CODE_FAILURE && isStartRefusal(error) ? EXIT_CODE_REFUSED : code;
}

const EXIT_CODE_FAILURE = 1;
const EXIT_CODE_REFUSED = 4;

/** The line a user reads: `moor: <message>`. */
export function startFailureLine(error: unknown): string {
  const message = isMoorError(error)
    ? error.message
    : `the daemon could not start: ${(error as Error)?.message ?? String(error)}`;
  return `moor: ${message}\n`;
}

/**
 * For `moor daemon run`'s entry: report a failure that escaped before the app
 * took over (the state dir check, the lock), and exit. Nothing is recorded in
 * the state dir: it is the thing found unusable or untrusted, and a proxy
 * checks it itself (`stateDirProblem`) before starting a daemon.
 */
export function exitOnStartFailure(error: unknown): never {
  process.stderr.write(startFailureLine(error));
  process.exit(startExitCode(error));
}
