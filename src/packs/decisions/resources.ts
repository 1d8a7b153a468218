/**
 * Every decision is a resource: `decision:///<path relative to the corpus>`,
 * text/markdown, the file as written. The path form keeps URIs stable and
 * unique even when two files share a number.
 */
import type { ResourceFamily } from '../../host/pack.js';
import { DECISION_URI_PREFIX, decisionUri } from './decision-uri.js';
import type { DecisionsState } from './state.js';
import { corpusOf } from './state.js';

export const decisionResources: ResourceFamily<DecisionsState> = {
  uriTemplate: `${DECISION_URI_PREFIX}{+path}`,
  name: 'decision',
  title: 'Architecture decision record',
  description: 'One decision record as markdown; path is relative to the decisions folder.',
  mimeType: 'text/markdown',
  owns: (uri) => uri.startsWith(DECISION_URI_PREFIX),
  list(state) {
    if (state.kind === 'missing') return [];
    const corpus = corpusOf(state);
    // This reader now holds the list as it stands, perhaps in the middle of a burst of changes.
    state.announcer?.listed();
    return corpus.decisions.map((d) => ({
      uri: decisionUri(d),
      name: d.id,
      title: d.title,
      description: `${d.status}${d.date ? `, ${d.date}` : ''}`,
      mimeType: 'text/markdown',
    }));
  },
  read(state, uri) {
    if (state.kind === 'missing') return undefined;
    const corpus = corpusOf(state);
    let corpusPath: string;
    try {
      corpusPath = uri.slice(DECISION_URI_PREFIX.length).split('/').map(decodeURIComponent).join('/');
    } catch {
      return undefined;
    }
    const decision = corpus.decisions.find((d) => d.corpusPath === corpusPath);
    if (!decision) return undefined;
    return { uri, mimeType: 'text/markdown', text: decision.body };
  },
};
