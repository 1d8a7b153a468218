/**
 * `moor decisions context --format markdown`: what a change touches, as a
 * pull-request comment — each changed file's governing decisions, the
 * proposals that would govern them, superseded decisions the changed files
 * still cite (by file name or `ADR-N`), and the records the change itself
 * adds or edits. Links point at the records (under `--link-base URL`, e.g.
 * the forge's blob URL for the commit, when given).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MoorError } from '../../errors.js';
import type { DecisionCorpus as Corpus } from '../../packs/decisions/corpus/corpus-view.js';
import type { Decision } from '../../packs/decisions/corpus/model.js';
import { MAX_FILES } from '../../packs/decisions/tools/context.js';
import type { DecisionSummary } from '../../packs/decisions/tools/shared.js';
import { type ChangeSet, changedFiles, git } from './changed-files.js';
import { withLocalTools } from './local.js';
import type { ResolvedWorkspace } from './options.js';

/** The first line of every summary: a workflow finds its earlier comment by it and updates that one. */
export const SUMMARY_MARKER = '<!-- moor:decisions-context -->';

interface FileContext {
  readonly file: string;
  readonly refused: string | null;
  readonly governing: readonly (DecisionSummary & { globs: string[] })[];
  readonly proposed: readonly (DecisionSummary & { globs: string[] })[];
}

/** Files larger than this are not read for citations. */
const MAX_CITING_BYTES = 1024 * 1024;

function text(s: string): string {
  return s.replace(/[\\[\]|<>*_`]/g, (c) => `\\${c}`);
}

export interface SummaryOptions {
  /** Prefix for record links (`https://github.com/o/r/blob/SHA`); workspace-relative paths without it. */
  readonly linkBase?: string | undefined;
}

/** The summary for the files git reports changed. */
export async function changeSummary(
  resolved: ResolvedWorkspace,
  change: ChangeSet,
  options: SummaryOptions = {},
): Promise<string> {
  const files = await changedFiles(resolved.root, change);
  const base = await baseOf(resolved.root, change);
  return withLocalTools(resolved, async (call, state) => {
    if (state.kind === 'missing') throw new MoorError('CORPUS_NOT_FOUND', state.message);
    const contexts: FileContext[] = [];
    for (let i = 0; i < files.length; i += MAX_FILES) {
      const result = await call('get_decision_context', { files: files.slice(i, i + MAX_FILES) });
      contexts.push(...((result.structuredContent as { files?: FileContext[] } | undefined)?.files ?? []));
    }
    const link = (d: { readonly id: string; readonly title: string; readonly path: string }) => {
      const target = options.linkBase
        ? `${options.linkBase.replace(/\/+$/, '')}/${encodeURI(d.path)}`
        : encodeURI(d.path);
      return `[${text(`${d.id} ${d.title}`)}](${target})`;
    };
    const records = new Map(state.corpus.decisions.map((d) => [d.path, d]));
    const existed = base === null ? new Set<string>() : await existingAt(resolved.root, base, files);
    const lines = [SUMMARY_MARKER, `### Decisions this change touches (${describeChange(change)})`, ''];
    if (files.length === 0) return [...lines, 'No files changed.', ''].join('\n');

    const governed = contexts.filter((c) => c.governing.length > 0);
    if (governed.length > 0) {
      lines.push('**Governing decisions**', '', '| File | Decisions |', '| --- | --- |');
      for (const c of governed)
        lines.push(`| \`${c.file}\` | ${c.governing.map((g) => `${link(g)} (${g.status})`).join('<br>')} |`);
      lines.push('');
    }
    const ungoverned = contexts.filter((c) => c.governing.length === 0).length;
    if (ungoverned > 0)
      lines.push(`${ungoverned} of ${files.length} changed files fall under no decision.`, '');

    const proposals = new Map<string, { decision: DecisionSummary; files: string[] }>();
    for (const c of contexts)
      for (const p of c.proposed) {
        const entry = proposals.get(p.path) ?? { decision: p, files: [] };
        entry.files.push(c.file);
        proposals.set(p.path, entry);
      }
    if (proposals.size > 0) {
      lines.push('**Proposals touching these files**', '');
      for (const { decision, files: touched } of proposals.values())
        lines.push(`- ${link(decision)} (proposed): ${touched.map((f) => `\`${f}\``).join(', ')}`);
      lines.push('');
    }

    const citations = citedSuperseded(
      resolved.root,
      state.corpus,
      files.filter((f) => !records.has(f)),
    );
    if (citations.length > 0) {
      lines.push('**Superseded decisions the change still cites**', '');
      for (const c of citations) {
        const now = c.successors.map(link).join(', ');
        lines.push(
          `- \`${c.file}:${c.line}\` cites ${link(c.decision)}${now === '' ? '' : `, superseded by ${now}`}`,
        );
      }
      lines.push('');
    }

    const touchedRecords = files.flatMap((f) => {
      const d = records.get(f);
      return d === undefined ? [] : [{ d, verb: base !== null && !existed.has(f) ? 'adds' : 'edits' }];
    });
    if (touchedRecords.length > 0) {
      lines.push('**Decision records this change adds or edits**', '');
      for (const { d, verb } of touchedRecords) lines.push(`- ${verb} ${link(d)} (${d.status})`);
      lines.push('');
    }
    return lines.join('\n');
  });
}

function describeChange(change: ChangeSet): string {
  return change.kind === 'staged' ? 'staged' : `since ${text(change.ref)}`;
}

/** The commit the change starts from: the merge base with REF, or HEAD for a staged change (null before the first commit). */
async function baseOf(root: string, change: ChangeSet): Promise<string | null> {
  try {
    const args =
      change.kind === 'since' ? ['merge-base', change.ref, 'HEAD'] : ['rev-parse', '--verify', 'HEAD'];
    return (await git(root, args)).trim();
  } catch {
    return null;
  }
}

/** Which of `files` (workspace-relative) exist in the tree of `commit`. */
async function existingAt(root: string, commit: string, files: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < files.length; i += 500) {
    const out = await git(root, ['ls-tree', '-z', '--name-only', commit, '--', ...files.slice(i, i + 500)]);
    for (const name of out.split('\0')) if (name !== '') found.add(name);
  }
  return found;
}

interface Citation {
  readonly file: string;
  readonly line: number;
  readonly decision: Decision;
  readonly successors: readonly Decision[];
}

/** Lines of the changed files that name a superseded decision by its file name or as `ADR-N`. */
function citedSuperseded(root: string, corpus: Corpus, files: readonly string[]): Citation[] {
  const superseded = corpus.decisions.filter((d) => d.status === 'superseded');
  if (superseded.length === 0) return [];
  const tests = superseded.map((d) => {
    const name = path.posix.basename(d.path).toLowerCase();
    const byNumber = d.number === null ? null : new RegExp(`\\badr[-_ #]?0*${d.number}\\b`, 'i');
    return {
      d,
      cites: (line: string) => line.toLowerCase().includes(name) || (byNumber?.test(line) ?? false),
    };
  });
  const out: Citation[] = [];
  for (const file of files) {
    let body: string;
    try {
      const abs = path.join(root, file);
      if (fs.statSync(abs).size > MAX_CITING_BYTES) continue;
      body = fs.readFileSync(abs, 'utf8');
    } catch {
      continue; // deleted or unreadable: it cites nothing now
    }
    body.split(/\r?\n/).forEach((line, i) => {
      for (const { d, cites } of tests)
        if (cites(line))
          out.push({
            file,
            line: i + 1,
            decision: d,
            successors: corpus.finalSuccessors(d).map((s) => s.decision),
          });
    });
  }
  return out;
}
