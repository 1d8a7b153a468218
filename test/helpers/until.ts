/**
 * Polls a condition that no promise announces (a handler started, a request
 * was aborted, a route was freed) until it holds; fails after `ms`.
 */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
