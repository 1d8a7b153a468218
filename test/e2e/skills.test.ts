/**
 * The skills extension with the official SDK client (SkillsClient): the
 * decisions pack's usage skill is listed, fetched and read — digest and
 * frontmatter verified — on `moor stdio --direct` in every negotiation mode,
 * through `moor stdio` (proxy → daemon) in both eras, and over HTTP; it never
 * appears in tools/list or resources/list.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, makeState, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { connectStdio, ERA_MODES, type EraMode } from '../helpers/sdk-client.js';
import { fixture, type Started, start } from '../http/helpers.js';

const SKILL_URI = 'skill://decisions/consult-decisions/SKILL.md';
const DIRECT = ['stdio', '--direct', '--workspace', E2E_WORKSPACE];

let state: TestState;
const fx = fixture();
let http: Started;
const clients = new Map<string, Client>();

async function connectHttp(mode: EraMode): Promise<Client> {
  const client = new Client(
    { name: 'moor-skills-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : mode } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return client;
}

beforeAll(async () => {
  state = makeState();
  http = await start(fx);
  for (const mode of ERA_MODES) clients.set(`direct ${mode}`, await connectStdio(mode, DIRECT));
  const env = { MOOR_STATE_DIR: state.dir };
  for (const mode of ['legacy', 'modern'] as const)
    clients.set(`proxy ${mode}`, await connectStdio(mode, ['stdio', '--workspace', E2E_WORKSPACE], env));
  for (const mode of ['legacy', 'modern'] as const) clients.set(`http ${mode}`, await connectHttp(mode));
});

afterAll(async () => {
  for (const client of clients.values()) await client.close().catch(() => {});
  await http.endpoint.close(500);
  fx.close();
  await cleanupAll();
});

const HOPS = [
  ...ERA_MODES.map((mode) => `direct ${mode}`),
  'proxy legacy',
  'proxy modern',
  'http legacy',
  'http modern',
] as const;

function client(hop: string): Client {
  const c = clients.get(hop);
  if (!c) throw new Error(`no ${hop} client`);
  return c;
}

const modern = (hop: string) => !hop.endsWith('legacy');

describe.each(HOPS.map((hop) => [hop] as const))('skills on %s', (hop) => {
  it('advertises the extension and lists the one usage skill', async () => {
    const skills = new SkillsClient(client(hop));
    expect(skills.supported).toBe(true);
    expect(client(hop).getServerCapabilities()?.extensions?.['io.modelcontextprotocol/skills']).toEqual({});
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual([SKILL_URI]);
    const [entry] = listing.skills;
    expect(entry?.frontmatter.name).toBe('consult-decisions');
    expect(entry?.frontmatter.description).toMatch(/get_decision_context/);
    expect(entry?.resources).toEqual([
      { uri: SKILL_URI, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), size: expect.any(Number) },
    ]);
    if (modern(hop)) {
      expect(listing.ttlMs).toBe(300_000);
      expect(listing.cacheScope).toBe('public');
    } else {
      expect(listing.ttlMs).toBeUndefined();
    }
  });

  it('gets the skill by URI and reads SKILL.md with its digest and frontmatter verified', async () => {
    const skills = new SkillsClient(client(hop));
    const { skill } = await skills.get(SKILL_URI);
    const file = await skills.read(skill);
    expect(file.verified).toBe(true);
    expect(file.frontmatter).toEqual(skill.frontmatter);
    expect(file.body).toContain('get_decision_context');
    expect(file.body).toContain('search_decisions');
    expect(file.body).toContain('list_superseded');
    expect(file.body).toMatch(/`dangling`/);
    expect(file.body).toMatch(/`cycle`/);
  });

  it('answers -32602 for a skill it does not serve', async () => {
    await expect(new SkillsClient(client(hop)).get('skill://decisions/nope/SKILL.md')).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('keeps the skill out of tools/list and resources/list', async () => {
    const { tools } = await client(hop).listTools();
    expect(tools.some((t) => t.name.includes('skill'))).toBe(false);
    const { resources } = await client(hop).listResources();
    expect(resources.some((r) => r.uri.startsWith('skill://'))).toBe(false);
    expect(resources.length).toBeGreaterThan(0);
  });
});

describe('skills payload across hops', () => {
  it('is the same entry and the same bytes everywhere', async () => {
    const seen = await Promise.all(
      HOPS.map(async (hop) => {
        const skills = new SkillsClient(client(hop));
        const { skill } = await skills.get(SKILL_URI);
        const file = await skills.read(skill);
        return JSON.stringify({ skill, text: file.text });
      }),
    );
    for (const other of seen.slice(1)) expect(other).toBe(seen[0]);
  });
});
