/**
 * The GET pages beside /mcp: `/metrics` (Prometheus text) and `/status`
 * (a self-contained HTML page for people). Intake has already checked
 * Host/Origin and the bearer token; what they show comes from providers the
 * composition passes in, so this layer knows no packs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageHandler } from './intake.js';
import { entryErrorBody, sendJson } from './wire.js';

export const METRICS_PATH = '/metrics';
export const STATUS_PATH = '/status';

export interface PageProviders {
  /** The exposition and its content type; absent when metrics are off. */
  readonly metrics?: (() => Promise<{ readonly text: string; readonly contentType: string }>) | undefined;
  /** The status page for this request's query (`?workspace=`). */
  readonly status?: ((query: URLSearchParams) => string) | undefined;
  onError(error: unknown, page: string): void;
}

/** No script, no external anything: the page's own inline styles and data: images only. */
const STATUS_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

export function observabilityPages(providers: PageProviders): Map<string, PageHandler> {
  const pages = new Map<string, PageHandler>();
  const { metrics, status } = providers;
  const failed = (res: ServerResponse, error: unknown, page: string) => {
    providers.onError(error, page);
    if (!res.headersSent) sendJson(res, 500, entryErrorBody(-32603, 'Internal server error'));
    else res.destroy();
  };
  if (metrics !== undefined) {
    pages.set(METRICS_PATH, (req, res) => {
      metrics().then(
        ({ text, contentType }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (error: unknown) => failed(res, error, METRICS_PATH),
      );
    });
  }
  if (status !== undefined) {
    pages.set(STATUS_PATH, (req: IncomingMessage, res: ServerResponse) => {
      try {
        const url = req.url ?? '/';
        const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
        const html = status(query);
        res.writeHead(200, STATUS_HEADERS);
        res.end(req.method === 'HEAD' ? undefined : html);
      } catch (error) {
        failed(res, error, STATUS_PATH);
      }
    });
  }
  return pages;
}
