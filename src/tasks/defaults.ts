/**
 * The task service's defaults, apart from the service itself so that the
 * command line can show them without loading the SDK.
 */

/** How long a finished task stays readable. */
export const DEFAULT_RETENTION_MS = 10 * 60_000;

/** How long a running task's lease lasts; its daemon renews it every third of that. */
export const DEFAULT_LEASE_MS = 15_000;

/**
 * How many bytes of finished tasks' results a daemon keeps while the store
 * cannot take them; a result past that is replaced by a failure saying so.
 */
export const DEFAULT_UNWRITTEN_RESULT_BYTES = 64 * 1024 * 1024;

/** How long a closing daemon tries once more to write the completions the store has not taken. */
export const DEFAULT_CLOSE_FLUSH_MS = 2_000;
