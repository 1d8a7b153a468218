/**
 * The task service's defaults, apart from the service itself so that the
 * command line can show them without loading the SDK.
 */

/** How long a finished task stays readable. */
export const DEFAULT_RETENTION_MS = 10 * 60_000;

/** How long a running task's lease lasts; its daemon renews it every third of that. */
export const DEFAULT_LEASE_MS = 15_000;
