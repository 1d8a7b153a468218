/**
 * The decisions pack: a repository's architecture decision records, served
 * read-only to agents; with `allowWrites`, draft_decision writes new ones.
 */
import { definePack, type Pack } from '../../host/pack.js';
import { decisionResources } from './resources.js';
import { consultDecisionsSkill } from './skill.js';
import { type DecisionsOptions, type DecisionsState, openDecisions } from './state.js';
import { checkDecisions } from './tools/check-decisions.js';
import { getDecisionContext } from './tools/context.js';
import { draftDecision } from './tools/draft-decision.js';
import { getDecision } from './tools/get.js';
import { searchDecisions } from './tools/search.js';
import { listSuperseded } from './tools/superseded.js';

const INSTRUCTIONS = `Decisions: this repository's architecture decision records (ADRs).
- Before changing files, call get_decision_context with their paths: it names the decisions that govern them (following supersession to the current one).
- To find what was decided about a topic, call search_decisions; then get_decision with an id for the full record.
- list_superseded shows how decisions replaced each other and flags broken links; check_decisions checks the whole corpus (broken records and links, governed paths that match no file).
Decisions marked superseded are history: follow supersededBy to the one in force.`;

export function createDecisionsPack(options: DecisionsOptions): Pack<DecisionsState> {
  return definePack<DecisionsState>({
    name: 'decisions',
    instructions:
      options.allowWrites === true
        ? `${INSTRUCTIONS}\n- draft_decision writes a new proposed decision record once the user confirms it.`
        : INSTRUCTIONS,
    tools: [
      searchDecisions,
      getDecision,
      getDecisionContext,
      listSuperseded,
      checkDecisions,
      ...(options.allowWrites === true ? [draftDecision] : []),
    ],
    resources: [decisionResources],
    skills: [consultDecisionsSkill],
    open: (workspace) => openDecisions(workspace.root, options, workspace.announce),
    close: (state) => {
      if (state.kind !== 'loaded') return;
      state.announcer?.close();
      state.corpus.close();
    },
    // A watched corpus is current once its pending changes are applied, and its fingerprint covers
    // every record's file; an unwatched one may be behind the disk, so it vouches for nothing.
    version: (state) => {
      if (!options.watch || state.kind !== 'loaded') return undefined;
      state.corpus.ensureFresh();
      return state.corpus.fingerprint;
    },
  });
}
