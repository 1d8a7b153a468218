/**
 * docs/ci.md's GitHub Actions workflow, run without GitHub: the workflow file
 * (docs/ci/decisions.yml, quoted whole in docs/ci.md) is parsed and its `run:`
 * steps executed in order with bash, as the runner does, in a real clone whose
 * pull request touches governed files and adds a record under a number the
 * base branch took meanwhile. Two things are replaced, and only those:
 * - the install step (npm ci needs the registry, and the test suite has just
 *   built moor): `moor` on PATH is the built binary instead;
 * - `gh`, the one command that needs GitHub's API: a stand-in records each
 *   call, answers the comment listing with no comments, and keeps the posted body.
 * `uses:` steps (checkout, setup-node, the SARIF upload) are GitHub's own.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';

interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
}

const workflowText = fs.readFileSync(path.join(REPO_ROOT, 'docs/ci/decisions.yml'), 'utf8');
const workflow = yaml.load(workflowText) as { jobs: { decisions: { steps: Step[] } } };
const temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-ci-')));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.org',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.org',
};
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });
}
function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}
function record(status: string, title: string, extra: string): string {
  return `---\nstatus: ${status}\ndate: 2026-01-01\n${extra}---\n# ${title}\n\nBody.\n`;
}

/** origin (bare) with main; a clone on `feature`, one commit ahead of where main was, main one further on. */
function pullRequest(): { clone: string; head: string } {
  const origin = path.join(temp, 'origin.git');
  const seed = path.join(temp, 'seed');
  git(temp, 'init', '-q', '--bare', '-b', 'main', origin);
  git(temp, 'clone', '-q', origin, seed);
  write(
    seed,
    'docs/decisions/0001-use-mysql.md',
    record('superseded', 'Use MySQL', 'affects:\n  - "src/db/**"\n'),
  );
  write(
    seed,
    'docs/decisions/0002-use-postgres.md',
    record('accepted', 'Use Postgres', 'supersedes: "0001"\naffects:\n  - "src/db/**"\n'),
  );
  write(
    seed,
    'docs/decisions/0003-a-job-queue.md',
    record('proposed', 'A job queue', 'affects:\n  - "src/jobs/**"\n'),
  );
  write(seed, 'src/db/pool.ts', 'export const size = 4;\n');
  write(seed, 'src/jobs/run.ts', 'export {};\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'base');
  git(seed, 'push', '-q', 'origin', 'main');
  const clone = path.join(temp, 'clone');
  git(temp, 'clone', '-q', origin, clone);
  git(clone, 'checkout', '-q', '-b', 'feature');
  write(clone, 'src/db/pool.ts', 'export const size = 4;\n// Sized for MySQL, see ADR-1.\n');
  write(clone, 'src/jobs/run.ts', 'export const run = () => {};\n');
  write(
    clone,
    'docs/decisions/0004-retry-jobs.md',
    record('proposed', 'Retry jobs', 'affects:\n  - "src/jobs/**"\n'),
  );
  git(clone, 'add', '-A');
  git(clone, 'commit', '-q', '-m', 'feature');
  // Meanwhile main took 0004 for something else.
  write(seed, 'docs/decisions/0004-log-format.md', record('accepted', 'Log format', ''));
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'main moves on');
  git(seed, 'push', '-q', 'origin', 'main');
  git(clone, 'fetch', '-q', 'origin');
  return { clone, head: git(clone, 'rev-parse', 'HEAD').trim() };
}

/** Stand-ins on PATH: `moor` (the built binary) and `gh` (no GitHub). */
function stubs(): { bin: string; ghLog: string; posted: string } {
  const bin = path.join(temp, 'bin');
  fs.mkdirSync(bin);
  const ghLog = path.join(temp, 'gh.log');
  const posted = path.join(temp, 'posted.md');
  fs.writeFileSync(path.join(bin, 'moor'), `#!/bin/sh\nexec "${process.execPath}" "${MOOR_BIN}" "$@"\n`, {
    mode: 0o755,
  });
  fs.writeFileSync(
    path.join(bin, 'gh'),
    [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >> "${ghLog}"`,
      // The listing of existing comments: none yet. A post: keep the body it sends.
      `for arg in "$@"; do case "$arg" in body=@*) cat "\${arg#body=@}" > "${posted}";; esac; done`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { bin, ghLog, posted };
}

describe('the CI workflow of docs/ci.md', () => {
  it('is quoted whole in docs/ci.md', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/ci.md'), 'utf8');
    expect(doc).toContain(`\`\`\`yaml\n${workflowText}\`\`\``);
  });

  it('runs its steps: the comment is posted, SARIF is written, and the job fails on the collision', () => {
    const { clone, head } = pullRequest();
    const { bin, ghLog, posted } = stubs();
    const output = path.join(temp, 'github-output');
    fs.writeFileSync(output, '');
    const expressions: Record<string, string> = {
      '${{ github.token }}': 'test-token',
      '${{ github.event.pull_request.number }}': '7',
    };
    const outputs = () =>
      Object.fromEntries(
        fs
          .readFileSync(output, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => l.split('=', 2) as [string, string]),
      );
    const ran: Array<{ name: string; code: number | null; stderr: string }> = [];
    for (const step of workflow.jobs.decisions.steps) {
      if (step.run === undefined) continue;
      const name = step.name ?? '';
      if (name === 'Install moor') continue; // replaced by `moor` on PATH (see the top of the file)
      // The two conditions the workflow's run steps use.
      if (step.if === "steps.check.outputs.status == '1'" && outputs().status !== '1') continue;
      if (step.if !== undefined && step.if !== "steps.check.outputs.status == '1'")
        throw new Error(`unexpected condition ${step.if}`);
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        PATH: `${bin}:${process.env.PATH}`,
        GITHUB_BASE_REF: 'main',
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'acme/shop',
        GITHUB_SHA: head,
        GITHUB_OUTPUT: output,
      };
      delete env.MOOR_WORKSPACE;
      for (const [key, value] of Object.entries(step.env ?? {})) env[key] = expressions[value] ?? value;
      // As the runner runs a run step: bash --noprofile --norc -eo pipefail.
      const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
        cwd: clone,
        env,
        encoding: 'utf8',
      });
      ran.push({ name, code: result.status, stderr: result.stderr });
    }
    expect(ran.map((r) => [r.name, r.code])).toEqual([
      ['Summarise the decisions this change touches', 0],
      ['Post it on the pull request (updating the earlier comment)', 0],
      ['Check the decision records against the base branch', 0],
      ['Fail when the check found problems', 1],
    ]);

    const summary = fs.readFileSync(path.join(clone, 'decisions-context.md'), 'utf8');
    const blob = `https://github.example/acme/shop/blob/${head}`;
    expect(
      summary.startsWith(
        '<!-- moor:decisions-context -->\n### Decisions this change touches (since origin/main)',
      ),
    ).toBe(true);
    expect(summary).toContain(
      `| \`src/db/pool.ts\` | [0002 Use Postgres](${blob}/docs/decisions/0002-use-postgres.md) (accepted) |`,
    );
    expect(summary).toContain(
      `- [0003 A job queue](${blob}/docs/decisions/0003-a-job-queue.md) (proposed): \`src/jobs/run.ts\``,
    );
    expect(summary).toContain(
      `- \`src/db/pool.ts:2\` cites [0001 Use MySQL](${blob}/docs/decisions/0001-use-mysql.md), superseded by [0002 Use Postgres](${blob}/docs/decisions/0002-use-postgres.md)`,
    );
    expect(summary).toContain(
      `- adds [0004 Retry jobs](${blob}/docs/decisions/0004-retry-jobs.md) (proposed)`,
    );

    // Posted once, as a new comment (the listing had none with the marker).
    const calls = fs.readFileSync(ghLog, 'utf8').trim().split('\n');
    expect(calls).toEqual([
      expect.stringMatching(/^api repos\/acme\/shop\/issues\/7\/comments --paginate --jq /),
      'api --method POST repos/acme/shop/issues/7/comments -F body=@decisions-context.md',
    ]);
    expect(fs.readFileSync(posted, 'utf8')).toBe(summary);

    const sarif = JSON.parse(fs.readFileSync(path.join(clone, 'decisions.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['number-collision']);
    expect(sarif.runs[0].results[0].message.text).toContain('docs/decisions/0004-log-format.md');
  });
});
