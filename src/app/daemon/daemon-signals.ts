/**
 * How a foreground daemon process answers signals: SIGTERM and SIGINT shut
 * it down gracefully, SIGHUP (its terminal closing) is ignored so a daemon
 * started from a shell outlives it, and an uncaught exception is logged and
 * shuts it down rather than killing it mid-request.
 */
import type { Logger } from 'pino';

export interface Stoppable {
  shutdown(reason: string): Promise<void>;
}

export function wireDaemonSignals(daemon: Stoppable, logger: Logger): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void daemon.shutdown(signal));
  process.on('SIGHUP', () => {});
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    void daemon.shutdown('uncaught exception');
  });
}
