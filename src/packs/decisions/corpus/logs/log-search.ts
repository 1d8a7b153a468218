/**
 * Search over several logs: each log ranks its own records, and the pages are
 * merged by score. Each log is asked for the first `offset + limit` hits, so
 * the merged page is the one a single index over all logs would give as long
 * as the logs' scores are comparable (they use the same ranking).
 */
import type { Decision } from '../model.js';
import type { SearchHit, SearchOptions, SearchResult } from '../search/search.js';

export interface LogSearcher {
  readonly name: string;
  search(query: string, options: SearchOptions): SearchResult;
  wrap(decision: Decision): Decision;
}

export function searchLogs(
  logs: readonly LogSearcher[],
  query: string,
  options: SearchOptions = {},
): SearchResult {
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.max(0, options.limit ?? 10);
  const answers = logs.map((log) => ({
    log,
    result: log.search(query, { ...options, offset: 0, limit: offset + limit }),
  }));
  // When some log has a record with every word, records with only some of them are not hits anywhere.
  const matchedAll = answers.some((a) => a.result.matchedAll && a.result.total > 0);
  const counted = answers.filter((a) => a.result.total > 0 && a.result.matchedAll === matchedAll);
  const hits: SearchHit[] = [];
  for (const { log, result } of counted)
    for (const hit of result.hits) hits.push({ ...hit, decision: log.wrap(hit.decision) });
  // Stable: equal scores keep the logs' order, and each log's own order.
  hits.sort((a, b) => b.score - a.score);
  return {
    total: counted.reduce((sum, a) => sum + a.result.total, 0),
    hits: hits.slice(offset, offset + limit),
    matchedAll,
  };
}
