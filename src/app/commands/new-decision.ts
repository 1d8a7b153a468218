/**
 * `moor decisions new "Title"`: draft_decision for people — the same format,
 * padding and never-overwrite rules, no confirmation round-trip (the command
 * line is the confirmation). The number is one no branch has used: above
 * every number of the work tree, of each local branch, and of `--against
 * REF`, so two branches drafting at once do not both take the next one.
 */

import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MoorError } from '../../errors.js';
import { planDraft, today, writeRecord } from '../../packs/decisions/tools/draft-decision.js';
import { draftTarget } from '../../packs/decisions/tools/log-choice.js';
import { withLocalTools } from './local.js';
import type { ResolvedWorkspace } from './options.js';
import { inGitRepository, localBranches, numbersAt, verifiedRef } from './record-numbers.js';

export interface NewDecisionOptions {
  readonly title: string;
  readonly context?: string | undefined;
  readonly against?: string | undefined;
  /** With several decision logs, the one the record goes into. */
  readonly log?: string | undefined;
}

/** draft_decision's title rules, as a usage error. */
function checkedTitle(raw: string): string {
  const title = raw.trim();
  if (title.length === 0) throw new MoorError('USAGE', 'the title must not be empty');
  if (title.length > 200) throw new MoorError('USAGE', 'the title must be at most 200 characters');
  if (/[\r\n]/.test(title)) throw new MoorError('USAGE', 'the title must be one line');
  return title;
}

export async function newDecisionLocally(
  resolved: ResolvedWorkspace,
  options: NewDecisionOptions,
): Promise<CallToolResult> {
  const title = checkedTitle(options.title);
  const commit =
    options.against === undefined ? undefined : await verifiedRef(resolved.root, options.against);
  return withLocalTools(resolved, async (call, state) => {
    // The tools say why there is no corpus the way every command does.
    if (state.kind !== 'loaded') return call('check_decisions', {});
    const target = draftTarget(state, options.log);
    const plan = planDraft(target.corpus);
    const shown = (plain: string) => (target.log === null ? plain : `${target.log}:${plain}`);
    let highest = plan.number - 1;
    const seenIn: string[] = [];
    if (await inGitRepository(resolved.root)) {
      const corpusRel = path.relative(resolved.root, target.corpus.corpusDir);
      const trees = [...(await localBranches(resolved.root)), ...(commit === undefined ? [] : [commit])];
      for (const tree of trees) {
        const numbers = [...(await numbersAt(resolved.root, tree, corpusRel)).keys()];
        const max = Math.max(0, ...numbers);
        if (max > highest) {
          highest = max;
          seenIn.splice(0, seenIn.length, tree === commit ? (options.against as string) : tree);
        }
      }
    }
    const written = await writeRecord(
      { ...plan, number: highest + 1 },
      title,
      options.context ?? '',
      today(),
    );
    const rel = path.relative(resolved.root, written.file).split(path.sep).join('/');
    const why = seenIn.length > 0 ? ` (${seenIn[0]} already uses numbers up to ${highest})` : '';
    const message = `Wrote decision ${shown(written.id)} "${title}" (proposed, ${plan.format}) to ${rel}${why}.`;
    return {
      content: [{ type: 'text', text: message }],
      structuredContent: { created: true, id: shown(written.id), path: rel, format: plan.format, message },
    };
  });
}
