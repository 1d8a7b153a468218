/**
 * The `log` argument of the tools in a repository with several decision logs:
 * which names are valid, and which log a new record goes into.
 */
import { z } from 'zod';
import { ToolError } from '../../../errors.js';
import { lazily } from '../../../host/pack.js';
import type { DecisionCorpus } from '../corpus/corpus-view.js';
import { LogSet } from '../corpus/logs/log-set.js';
import { corpusOf, type DecisionsState } from '../state.js';

export const logNameSchema = lazily(() => z.string().min(1).max(200));

function logNames(state: DecisionsState): string[] {
  return state.kind === 'loaded' ? (state.logs ?? []).map((l) => l.name) : [];
}

/** A log name must be one the workspace has; a single-log repository has none to choose. */
export function checkLog(state: DecisionsState, log: string): void {
  const names = logNames(state);
  if (names.includes(log)) return;
  throw new ToolError(
    'INVALID_ARGUMENTS',
    names.length === 0
      ? `log "${log}": this repository keeps a single decision log; search without log.`
      : `log "${log}" is not one of this repository's decision logs: ${names.join(', ')}.`,
  );
}

/**
 * The corpus a new record is numbered in and written to: the only one, or
 * with several logs the one named (there is no sensible default among them).
 */
export function draftTarget(
  state: DecisionsState,
  log: string | undefined,
): { readonly corpus: DecisionCorpus; readonly log: string | null } {
  const corpus = corpusOf(state);
  if (!(corpus instanceof LogSet)) {
    if (log !== undefined) checkLog(state, log);
    return { corpus, log: null };
  }
  if (log === undefined)
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `This repository keeps several decision logs (${corpus.logNames.join(', ')}): name the one for the new record with log.`,
    );
  checkLog(state, log);
  const chosen = corpus.logs.find((l) => l.name === log);
  if (chosen === undefined) throw new ToolError('INVALID_ARGUMENTS', `log "${log}" is not served`);
  return { corpus: chosen.corpus, log };
}
