import { describe, expect, it } from 'vitest';
import { Workspace } from '../../src/host/call-scope.js';
import { Catalog } from '../../src/host/catalog.js';
import { erasePack } from '../../src/host/pack.js';
import { callTool } from '../../src/host/tool-call.js';
import { notesPack, STORE_DOWN_SESSION } from './fixture-pack.js';

function setup() {
  const pack = notesPack();
  const catalog = new Catalog([erasePack(pack)], 'Preamble.');
  const workspace = new Workspace('/tmp/ws');
  const errors: unknown[] = [];
  const env = {
    signal: new AbortController().signal,
    progress: async () => {},
    onInternalError: (error: unknown) => errors.push(error),
  };
  return { catalog, scope: workspace.scope('moor-key-1234'), env, errors };
}

describe('Catalog', () => {
  it('lists tools lexicographically with JSON Schema 2020-12 shapes and no $schema noise', () => {
    const { catalog } = setup();
    expect(catalog.tools.map((t) => t.name)).toEqual(['alpha_read', 'mid_boom', 'zeta_echo']);
    const echo = catalog.tools[2];
    expect(echo?.inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string', maxLength: 5 } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(echo?.outputSchema).not.toHaveProperty('$schema');
  });

  it('joins the preamble and pack instructions', () => {
    expect(setup().catalog.instructions).toBe('Preamble.\n\nNotes pack.');
  });
});

describe('callTool', () => {
  it('a store outage is no tool answer: the call fails -32051 with executed false, not isError', async () => {
    const { catalog, env, errors } = setup();
    const scope = new Workspace('/tmp/ws').scope(STORE_DOWN_SESSION);
    await expect(callTool(catalog, scope, { name: 'mid_boom', arguments: {} }, env)).rejects.toMatchObject({
      code: -32051,
      message: 'store down, nothing done',
      data: { executed: false },
    });
    expect(errors).toEqual([]);
  });

  it('returns one text block and structuredContent', async () => {
    const { catalog, scope, env } = setup();
    const result = await callTool(catalog, scope, { name: 'zeta_echo', arguments: { text: 'hi' } }, env);
    expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { echoed: 'hi' } });
  });

  it('an unknown tool is a -32602 protocol error naming the tool', async () => {
    const { catalog, scope, env } = setup();
    await expect(callTool(catalog, scope, { name: 'nope' }, env)).rejects.toMatchObject({
      code: -32602,
      data: { tool: 'nope' },
    });
  });

  it('schema-invalid arguments are an isError result naming the field', async () => {
    const { catalog, scope, env } = setup();
    const result = await callTool(catalog, scope, { name: 'zeta_echo', arguments: { text: 'toolong' } }, env);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: expect.stringMatching(/^Invalid arguments for zeta_echo: text: /),
    });
  });

  it('unknown keys are refused, but __-prefixed in-band hints are stripped first', async () => {
    const { catalog, scope, env } = setup();
    const extra = await callTool(
      catalog,
      scope,
      { name: 'zeta_echo', arguments: { text: 'a', other: 1 } },
      env,
    );
    expect(extra.isError).toBe(true);
    const hinted = await callTool(
      catalog,
      scope,
      { name: 'zeta_echo', arguments: { text: 'a', __workspace: 'x' } },
      env,
    );
    expect(hinted.isError).toBeUndefined();
  });

  it('a ToolError becomes its message; an unexpected error is reported but never leaked', async () => {
    const { catalog, scope, env, errors } = setup();
    const missing = await callTool(catalog, scope, { name: 'alpha_read', arguments: { key: 'zz' } }, env);
    expect(missing).toEqual({ content: [{ type: 'text', text: 'No note zz; try "a".' }], isError: true });
    const boom = await callTool(catalog, scope, { name: 'mid_boom', arguments: {} }, env);
    expect(boom.isError).toBe(true);
    expect(JSON.stringify(boom)).not.toMatch(/secret internal detail/);
    expect(errors).toHaveLength(1);
  });

  it('opens the pack state once per workspace', async () => {
    const { catalog, scope, env } = setup();
    await callTool(catalog, scope, { name: 'alpha_read', arguments: { key: 'a' } }, env);
    const second = await callTool(catalog, scope, { name: 'alpha_read', arguments: { key: 'a' } }, env);
    expect(second.structuredContent).toEqual({ note: 'note 0' });
  });
});
