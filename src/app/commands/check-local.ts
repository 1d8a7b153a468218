/**
 * `moor decisions check` in-process: the check_decisions answer, plus what
 * only a command line asks for — records whose number another revision
 * already uses (`--against REF`) and proposals older than allowed
 * (`--max-proposed-age DAYS`) — merged into one answer and one text.
 */

import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { LogSet } from '../../packs/decisions/corpus/logs/log-set.js';
import { daysBetween, todayUtc } from '../../packs/decisions/record-review.js';
import { type CheckAnswer, render } from '../../packs/decisions/tools/check-decisions.js';
import type { CheckFindingView } from './check-formats.js';
import { withLocalTools } from './local.js';
import type { ResolvedWorkspace } from './options.js';
import { collisions, numbersAt, verifiedRef } from './record-numbers.js';

export interface CheckExtras {
  /** A git revision whose decision numbers this branch's new records must not reuse. */
  readonly against?: string | undefined;
  /** Proposals dated longer ago than this many days are findings. */
  readonly maxProposedAge?: number | undefined;
  /** YYYY-MM-DD to count ages from (default today, UTC). */
  readonly today?: string | undefined;
}

export async function checkLocally(
  resolved: ResolvedWorkspace,
  extras: CheckExtras,
): Promise<CallToolResult> {
  // An unknown revision is a command line moor cannot act on: said before anything is loaded.
  const commit = extras.against === undefined ? undefined : await verifiedRef(resolved.root, extras.against);
  return withLocalTools(resolved, async (call, state) => {
    const result = await call('check_decisions', {});
    if (result.isError || state.kind !== 'loaded') return result;
    const answer = result.structuredContent as CheckAnswer;
    const added: CheckFindingView[] = [];
    const { corpus } = state;
    if (commit !== undefined) {
      // Numbers are per log: each log is compared with its own folder at the revision.
      const logs = corpus instanceof LogSet ? corpus.logs.map((l) => l.corpus) : [corpus];
      const found = [];
      for (const log of logs) {
        const corpusRel = path.relative(resolved.root, log.corpusDir);
        found.push(...collisions(log.decisions, await numbersAt(resolved.root, commit, corpusRel)));
      }
      for (const c of found)
        added.push({
          path: c.path,
          line: null,
          kind: 'number-collision',
          message: `${c.path} takes number ${c.number}, which ${extras.against} already gives to ${c.theirs.join(', ')}; renumber it (moor decisions new picks a free number)`,
        });
    }
    if (extras.maxProposedAge !== undefined) {
      const today = extras.today ?? todayUtc();
      for (const d of corpus.decisions) {
        if (d.status !== 'proposed' || d.date === null) continue;
        const age = daysBetween(d.date, today);
        if (age > extras.maxProposedAge)
          added.push({
            path: d.path,
            line: null,
            kind: 'proposal-too-old',
            message: `${d.id} has been proposed since ${d.date} (${age} days, more than ${extras.maxProposedAge}): accept, reject or withdraw it`,
          });
      }
    }
    if (added.length === 0) return result;
    const findings = [...answer.findings, ...added].sort(
      (a, b) =>
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
        (a.line ?? 0) - (b.line ?? 0) ||
        (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
    );
    const counts: Record<string, number> = {};
    for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    const merged: CheckAnswer = { ...answer, findings, counts };
    return { content: [{ type: 'text', text: render(merged) }], structuredContent: merged };
  });
}
