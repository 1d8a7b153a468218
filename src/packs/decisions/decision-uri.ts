/**
 * A decision's resource URI: `decision:///<path relative to the corpus>`.
 * Its own file because both the resource family and the state's change
 * announcer (which names changed files by URI) need it.
 */
import type { Decision } from './corpus/model.js';

export const DECISION_URI_PREFIX = 'decision:///';

export function decisionUri(decision: Decision): string {
  return decisionUriOf(decision.corpusPath);
}

/** The URI of the decision at a corpus-relative path. */
export function decisionUriOf(corpusPath: string): string {
  return DECISION_URI_PREFIX + corpusPath.split('/').map(encodeURIComponent).join('/');
}
