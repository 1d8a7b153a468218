/**
 * The daemon's defaults, apart from the daemon itself so that the command
 * line can show them without loading it.
 */

/** How long shutdown waits for in-flight requests before it cancels them. */
export const DEFAULT_GRACE_MS = 10_000;

/** The log level when neither `--log-level` nor MOOR_LOG_LEVEL names one. */
export const DEFAULT_LOG_LEVEL = 'info';
