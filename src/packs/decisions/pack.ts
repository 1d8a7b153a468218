/**
 * The decisions pack: a repository's architecture decision records, served
 * read-only to agents.
 */
import { definePack, type Pack } from '../../host/pack.js';
import { decisionResources } from './resources.js';
import { type DecisionsOptions, type DecisionsState, openDecisions } from './state.js';
import { getDecisionContext } from './tools/context.js';
import { getDecision } from './tools/get.js';
import { searchDecisions } from './tools/search.js';
import { listSuperseded } from './tools/superseded.js';

const INSTRUCTIONS = `Decisions: this repository's architecture decision records (ADRs).
- Before changing files, call get_decision_context with their paths: it names the decisions that govern them (following supersession to the current one).
- To find what was decided about a topic, call search_decisions; then get_decision with an id for the full record.
- list_superseded shows how decisions replaced each other and flags broken links.
Decisions marked superseded are history: follow supersededBy to the one in force.`;

export function createDecisionsPack(options: DecisionsOptions): Pack<DecisionsState> {
  return definePack<DecisionsState>({
    name: 'decisions',
    instructions: INSTRUCTIONS,
    tools: [searchDecisions, getDecision, getDecisionContext, listSuperseded],
    resources: [decisionResources],
    open: (workspace) => openDecisions(workspace.root, options),
    close: (state) => {
      if (state.kind === 'loaded') state.corpus.close();
    },
  });
}
