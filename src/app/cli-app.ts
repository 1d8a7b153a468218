/**
 * What the CLI's one-shot `moor decisions …` commands need from the app, as
 * one entry the commands import dynamically: in dist/bundle/cli-decisions.cjs
 * (scripts/bundle.mjs) that import is a part of the same file, run only when
 * a command answers locally.
 */

export { changeSummary } from './commands/change-summary.js';
export { githubAnnotations, sarifLog } from './commands/check-formats.js';
export { checkLocally } from './commands/check-local.js';
export { indexLocally } from './commands/decision-index.js';
export { callToolLocally, decisionContextForChanges } from './commands/local.js';
export { newDecisionLocally } from './commands/new-decision.js';
export { resolveWorkspace } from './commands/options.js';
export { IDENTITY } from './identity.js';
