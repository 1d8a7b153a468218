/**
 * What the e2e tests expect a daemon (or direct stdio) with the decisions
 * pack to list: its tools and the session tools, in tools/list order.
 */
export const DECISIONS_DAEMON_TOOLS = [
  'check_decisions',
  'connect_workspace',
  'disconnect_workspace',
  'get_decision',
  'get_decision_context',
  'list_superseded',
  'list_workspaces',
  'search_decisions',
] as const;
