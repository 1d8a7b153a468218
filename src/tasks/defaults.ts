/**
 * The task service's defaults, apart from the service itself so that the
 * command line can show them without loading the SDK.
 */

/** How long a finished task stays readable. */
export const DEFAULT_RETENTION_MS = 10 * 60_000;
