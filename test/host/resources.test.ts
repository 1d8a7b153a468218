import { describe, expect, it } from 'vitest';
import { Workspace } from '../../src/host/call-scope.js';
import { Catalog } from '../../src/host/catalog.js';
import { erasePack } from '../../src/host/pack.js';
import { listResources, RESOURCE_PAGE_SIZE, readResource } from '../../src/host/resources.js';
import { notesPack } from './fixture-pack.js';

const catalog = new Catalog([erasePack(notesPack())], 'P');
const scope = new Workspace('/tmp/ws').scope(undefined);

describe('resources', () => {
  it('pages through every resource exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listResources(catalog, scope, cursor);
      expect(page.resources.length).toBeLessThanOrEqual(RESOURCE_PAGE_SIZE);
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(250);
  });

  it('refuses a forged cursor with -32602', async () => {
    await expect(listResources(catalog, scope, 'not-a-cursor')).rejects.toThrow(
      expect.objectContaining({ code: -32602 }),
    );
    const beyond = Buffer.from(JSON.stringify({ v: 1, o: 10_000 })).toString('base64url');
    await expect(listResources(catalog, scope, beyond)).rejects.toThrow(
      expect.objectContaining({ code: -32602 }),
    );
  });

  it('reads a resource, and an unknown uri is -32602 with data.uri', async () => {
    expect(await readResource(catalog, scope, 'note:///a')).toEqual({
      contents: [{ uri: 'note:///a', mimeType: 'text/plain', text: 'note 0' }],
    });
    await expect(readResource(catalog, scope, 'note:///missing')).rejects.toThrow(
      expect.objectContaining({ code: -32602, data: { uri: 'note:///missing' } }),
    );
    await expect(readResource(catalog, scope, 'other://x')).rejects.toThrow(
      expect.objectContaining({ code: -32602 }),
    );
  });
});
