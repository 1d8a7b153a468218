/**
 * What the CLI's one-shot `moor decisions …` commands need from the app, as
 * one entry: `npm run build` bundles it into dist/bundle/cli-app.js, which
 * loads as one file instead of ~90 modules (bundle-loader.ts).
 */

export { changeSummary } from './commands/change-summary.js';
export { githubAnnotations, sarifLog } from './commands/check-formats.js';
export { checkLocally } from './commands/check-local.js';
export { indexLocally } from './commands/decision-index.js';
export { callToolLocally, decisionContextForChanges } from './commands/local.js';
export { newDecisionLocally } from './commands/new-decision.js';
export { resolveWorkspace } from './commands/options.js';
export { IDENTITY } from './identity.js';
