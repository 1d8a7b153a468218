/**
 * Packs served besides decisions, by name (`--pack NAME`, repeatable).
 * `conformance` is the official MCP conformance suite's fixtures, for tests
 * only. Names this module does not know are left to their owners (the
 * daemon also knows `tasks-conformance`).
 */
import { erasePack, type Pack } from '../../host/pack.js';
import { createConformancePack } from '../../packs/conformance/pack.js';

export const CONFORMANCE_PACK = 'conformance';

export function namedPacks(names: Iterable<string>): Pack<unknown>[] {
  const packs: Pack<unknown>[] = [];
  for (const name of new Set(names)) {
    if (name === CONFORMANCE_PACK) packs.push(erasePack(createConformancePack()));
  }
  return packs;
}
