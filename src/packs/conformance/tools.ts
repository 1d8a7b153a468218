/**
 * The suite's tools, by the names its scenarios call: content types,
 * logging, progress, errors, input from the client (sampling, elicitation,
 * roots — over requestInput, so the same tool works on both eras), a raw
 * JSON Schema 2020-12 input, and the diagnostic hooks of the 2026-07-28
 * scenarios (list mutations, capability and logging probes).
 */
import type { ToolDefinition } from '../../host/pack.js';
import { contentTools } from './content-tools.js';
import { inputTools } from './input-tools.js';
import { probeTools } from './probe-tools.js';
import type { ConformanceState } from './resources.js';

export const conformanceTools: ToolDefinition<ConformanceState>[] = [
  ...contentTools,
  ...inputTools,
  ...probeTools,
];
