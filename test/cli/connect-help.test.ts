/** The `npm start` banner prints the status page's login link (or the bare page without a token). */
import { describe, expect, it } from 'vitest';
import { connectHelp } from '../../src/cli/connect-help.js';

const base = { workspace: '/w', bin: '/moor/dist/cli/main.js', httpTokenFile: '/s/http.token' };

describe('the banner', () => {
  it('prints the login link with the token', () => {
    const text = connectHelp({ ...base, httpUrl: 'http://127.0.0.1:7410/mcp', httpToken: 'a+b/c' });
    expect(text).toContain(
      'Status page (open it in a browser; the link logs you in): http://127.0.0.1:7410/status?token=a%2Bb%2Fc',
    );
  });

  it('prints the bare page with --no-token, and nothing without HTTP', () => {
    const open = connectHelp({ ...base, httpUrl: 'http://127.0.0.1:7410/mcp', httpToken: null });
    expect(open).toContain('logs you in): http://127.0.0.1:7410/status\n');
    expect(connectHelp({ ...base, httpUrl: null, httpToken: null })).not.toContain('/status');
  });
});
