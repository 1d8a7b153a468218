/**
 * check_decisions on a generated fixture workspace: parse problems, broken
 * supersession, and governed globs that match no file (hidden folders,
 * node_modules and symlinks are not walked); progress and cancellation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../src/errors.js';
import type { HostContext, ToolContext } from '../../../src/host/pack.js';
import { type DecisionsState, openDecisions } from '../../../src/packs/decisions/state.js';
import { checkDecisions } from '../../../src/packs/decisions/tools/check-decisions.js';
import { tempDir } from './corpus/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function write(root: string, rel: string, text = ''): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

function madr(title: string, globs: string[], extra = ''): string {
  const affects = globs.map((g) => `  - path: "${g}"`).join('\n');
  return `---\nstatus: accepted\ndate: 2026-01-01\n${extra}affects:\n${affects}\n---\n# ${title}\n\nBody.\n`;
}

/** A workspace with live and dead globs, a dangling supersession and an unparseable record. */
function fixture(): string {
  const { dir, cleanup } = tempDir('moor-check-');
  cleanups.push(cleanup);
  write(dir, 'src/app/main.ts', 'x');
  write(dir, 'src/db/pool.ts', 'x');
  write(dir, '.hidden/only.go', 'x');
  write(dir, 'node_modules/pkg/index.go', 'x');
  write(dir, '.github/workflows/ci.yml', 'x');
  const outside = tempDir('moor-check-outside-');
  cleanups.push(outside.cleanup);
  write(outside.dir, 'linked/far.rs', 'x');
  fs.symlinkSync(path.join(outside.dir, 'linked'), path.join(dir, 'linked'));
  write(
    dir,
    'docs/decisions/0001-live.md',
    madr('Live globs', ['src/**/*.ts', 'src/db', '.github/workflows/ci.yml']),
  );
  write(
    dir,
    'docs/decisions/0002-dead.md',
    madr('Dead globs', ['lib/**/*.go', 'docs/missing/**', '**/*.rs', '!src/db/**']),
  );
  write(dir, 'docs/decisions/0003-dangling.md', madr('Dangling', ['src/app/**'], 'supersedes: ["0099"]\n'));
  write(dir, 'docs/decisions/0004-broken.md', '---\nstatus: [unclosed\n---\n# Broken\n');
  return dir;
}

function ctxFor(root: string, signal = new AbortController().signal) {
  const state = openDecisions(root, { watch: false });
  const messages: string[] = [];
  const ctx: ToolContext<DecisionsState> = {
    state,
    workspaceRoot: root,
    signal,
    sessionKey: undefined,
    host: {} as HostContext,
    progress: async (_p, _t, message) => {
      if (message) messages.push(message);
    },
    requestInput: async () => {
      throw new ToolError('USAGE', 'no input');
    },
  };
  cleanups.push(() => {
    if (state.kind === 'loaded') state.corpus.close();
  });
  return { ctx, messages };
}

describe('check_decisions', () => {
  it('reports dead globs, dangling supersession and unparseable records; live globs stay quiet', async () => {
    const root = fixture();
    const { ctx, messages } = ctxFor(root);
    const out = await checkDecisions.handler({}, ctx as never);
    if ('raw' in out) throw new Error('expected structured output');
    const structured = out.structured as {
      findings: Array<{ path: string; kind: string; message: string }>;
      counts: Record<string, number>;
      filesScanned: number;
    };
    const dead = structured.findings.filter((f) => f.kind === 'dead-glob').map((f) => f.message);
    // **/*.rs is reachable only through a symlink (never followed); lib/**/*.go only under .hidden and node_modules.
    expect(dead).toHaveLength(3);
    expect(dead.some((m) => m.includes('"**/*.rs"'))).toBe(true);
    expect(dead.some((m) => m.includes('"docs/missing/**"'))).toBe(true);
    expect(dead.some((m) => m.includes('"lib/**/*.go"'))).toBe(true);
    expect(structured.findings.every((f) => !f.message.includes('src/'))).toBe(true);
    expect(structured.findings.some((f) => f.kind === 'dangling')).toBe(true);
    expect(structured.findings.some((f) => f.path.endsWith('0004-broken.md'))).toBe(true);
    expect(structured.filesScanned).toBeGreaterThan(0);
    expect(messages.at(-1)).toMatch(/^walked \d+ files in \d+ folders$/);
    expect(out.text).toMatch(/problems/);
  });

  it('stops when its signal aborts', async () => {
    const root = fixture();
    for (let i = 0; i < 2000; i++) write(root, `gen/f${i}.txt`);
    const controller = new AbortController();
    const { ctx } = ctxFor(root, controller.signal);
    const ctxAborting = {
      ...ctx,
      progress: async () => {
        controller.abort(new Error('stop here'));
      },
    };
    await expect(checkDecisions.handler({}, ctxAborting as never)).rejects.toThrow('stop here');
  });

  it('is read-only and may run as an optional, abortable task', () => {
    expect(checkDecisions.annotations.readOnlyHint).toBe(true);
    expect(checkDecisions.task).toEqual({ eligibility: 'optional', cancellation: 'abort' });
  });
});
