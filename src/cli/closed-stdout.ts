/**
 * A reader that stops reading (`moor sessions list | head -1`) closes our
 * stdout under us; the next write fails with EPIPE, asynchronously, as an
 * 'error' event no one listens for, and node prints a stack. For a command
 * that only prints, the reader leaving is a normal end: exit 0, quietly.
 * Not for the proxy, whose stdout is the protocol and has its own ending.
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') process.exit(0);
    process.stderr.write(`moor: cannot write to stdout: ${error.message}\n`);
    process.exit(1);
  });
}
