/**
 * What a client without the token is told, and the status page's login
 * link: a 401 names the header and the token file (JSON for API clients, a
 * page for browsers), `/.well-known/…` is a 404 before the token check, the
 * right `?token=` sets a page-only cookie and redirects without the token,
 * and that cookie opens GET /status and nothing else.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { observabilityPages } from '../../src/http/pages.js';
import { fixture, modernBody, modernHeaders, post, type Started, start } from './helpers.js';

const fx = fixture();
const started: Started[] = [];
const TOKEN = 'page-login-token-0123456789abcdef0123456789';
const TOKEN_FILE = '/var/lib/moor "state"/http.token';

afterEach(async () => {
  for (const s of started.splice(0)) await s.endpoint.close(100);
});
afterAll(() => fx.close());

async function launch(): Promise<Started> {
  const pages = observabilityPages({
    status: (query) => `<p>status page for ${query.get('workspace') ?? 'default'}</p>`,
    metrics: async () => ({ text: 'metric 1\n', contentType: 'text/plain' }),
    onError: () => {},
  });
  const s = await start(fx, { token: TOKEN, tokenFile: TOKEN_FILE, pages });
  started.push(s);
  return s;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers, redirect: 'manual' });
}

describe('a 401 says what to do', () => {
  it('names the Authorization header and the token file in the JSON body and the challenge', async () => {
    const s = await launch();
    const missing = await post(s.url, modernBody(1, 'tools/list'), modernHeaders('tools/list'));
    expect(missing.status).toBe(401);
    const body = JSON.parse(missing.text) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toBe(
      `Unauthorized: this endpoint needs a bearer token; send the header "Authorization: Bearer <token>" with the token in the file ${TOKEN_FILE}.`,
    );
    expect(missing.headers.get('www-authenticate')).toBe(
      'Bearer realm="moor", error="invalid_token", error_description="this endpoint needs a bearer token: send the header \\"Authorization: Bearer <token>\\" with the token in the file /var/lib/moor \\"state\\"/http.token"',
    );
    const wrong = await post(s.url, modernBody(1, 'tools/list'), {
      ...modernHeaders('tools/list'),
      authorization: 'Bearer nope',
    });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text).error.message).toMatch(
      /^Unauthorized: the bearer token is not valid; send/,
    );
  });

  it('gives a browser asking for text/html a small page naming the file and the login link', async () => {
    const s = await launch();
    const res = await get(`${s.base}/status`, { accept: 'text/html,application/xhtml+xml' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="moor"/);
    const html = await res.text();
    expect(html).toContain('/var/lib/moor &#34;state&#34;/http.token');
    expect(html).toContain('/status?token=&lt;token&gt;');
    expect(html).toContain('Authorization: Bearer &lt;token&gt;');
  });

  it('answers /.well-known/ paths 404 before the token check', async () => {
    const s = await launch();
    for (const probe of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server/mcp',
    ]) {
      const res = await get(`${s.base}${probe}`);
      expect(res.status, probe).toBe(404);
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });
});

describe('the status page login link', () => {
  it('sets a page-only HttpOnly SameSite=Strict cookie and redirects to the URL without the token', async () => {
    const s = await launch();
    const res = await get(`${s.base}/status?workspace=%2Ftmp%2Fw&token=${TOKEN}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/status?workspace=%2Ftmp%2Fw');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^moor_status=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/status$/);
    // The cookie is not the token itself.
    expect(cookie).not.toContain(TOKEN);
    const pair = cookie.split(';')[0] as string;

    const page = await get(`${s.base}/status?workspace=%2Ftmp%2Fw`, { cookie: pair });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<p>status page for /tmp/w</p>');

    // Never an ambient credential for the tools, nor for another page.
    const call = await post(s.url, modernBody(1, 'tools/list'), {
      ...modernHeaders('tools/list'),
      cookie: pair,
    });
    expect(call.status).toBe(401);
    expect((await get(`${s.base}/metrics`, { cookie: pair })).status).toBe(401);
    expect((await fetch(`${s.base}/status`, { method: 'POST', headers: { cookie: pair } })).status).toBe(401);
  });

  it('gives a wrong token the 401 page and no cookie; a forged cookie opens nothing', async () => {
    const s = await launch();
    const wrong = await get(`${s.base}/status?token=${TOKEN}x`, { accept: 'text/html' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await wrong.text()).toContain('401: the bearer token is not valid');
    const forged = await get(`${s.base}/status`, { cookie: `moor_status=${TOKEN}` });
    expect(forged.status).toBe(401);
  });
});
