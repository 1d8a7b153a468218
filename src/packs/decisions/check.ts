/**
 * The corpus health check people run (`moor decisions check`): every problem
 * found while parsing plus every supersession edge that does not hold.
 */
import type { Corpus } from './corpus/corpus.js';

export interface CheckFinding {
  readonly path: string;
  readonly kind: string;
  readonly message: string;
}

export interface CheckReport {
  readonly decisions: number;
  readonly findings: readonly CheckFinding[];
}

export function checkCorpus(corpus: Corpus): CheckReport {
  const findings: CheckFinding[] = corpus.problems.map((p) => ({
    path: p.path,
    kind: p.kind,
    message: p.message,
  }));
  for (const edge of corpus.edges) {
    if (edge.state === 'resolved') continue;
    const where = edge.declaredBy[0] ?? edge.fromPath ?? edge.from;
    const detail =
      edge.state === 'dangling'
        ? `${edge.from} supersedes ${edge.to}, which does not exist`
        : edge.state === 'ambiguous'
          ? `${edge.from} supersedes ${edge.to}, which matches ${(edge.candidates ?? []).join(', ')}`
          : `${edge.from} supersedes ${edge.to} inside a supersession cycle`;
    findings.push({ path: where, kind: edge.state, message: detail });
  }
  findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.kind < b.kind ? -1 : 1));
  return { decisions: corpus.decisions.length, findings };
}

export function renderCheck(report: CheckReport): string {
  if (report.findings.length === 0) return `${report.decisions} decisions, no problems.`;
  const lines = report.findings.map((f) => `${f.path}: ${f.kind}: ${f.message}`);
  return [`${report.decisions} decisions, ${report.findings.length} problems:`, ...lines].join('\n');
}
