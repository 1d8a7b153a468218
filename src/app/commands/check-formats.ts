/**
 * `moor decisions check` for CI: the check_decisions findings as GitHub
 * workflow annotations (`::error file=…,line=…::message`) or as a SARIF 2.1.0
 * log that code-scanning tools ingest.
 */

export interface CheckFindingView {
  readonly path: string;
  readonly line: number | null;
  readonly kind: string;
  readonly message: string;
}

type Level = 'error' | 'warning';

/** What each kind of finding is, and how loudly CI should say it. Unlisted kinds are errors. */
const RULES: Readonly<Record<string, { readonly level: Level; readonly summary: string }>> = {
  unparseable: { level: 'error', summary: 'A file in the decision folder could not be read as a decision.' },
  dangling: { level: 'error', summary: 'A supersession link names a decision that does not exist.' },
  ambiguous: { level: 'error', summary: 'A supersession link matches more than one decision.' },
  cycle: { level: 'error', summary: 'Decisions supersede each other in a cycle, so none of them governs.' },
  'duplicate-number': { level: 'error', summary: 'Two decisions share a number.' },
  'no-successor': { level: 'warning', summary: 'A decision is marked superseded but names no successor.' },
  'dead-glob': { level: 'warning', summary: 'A governed path matches no file in the repository.' },
  'unknown-status': { level: 'warning', summary: 'A decision has a status moor does not recognise.' },
  skipped: { level: 'warning', summary: 'A Markdown file in the decision folder was not read.' },
  'number-collision': {
    level: 'error',
    summary: 'A record this branch adds has a number the compared revision gives to another record.',
  },
  'review-overdue': {
    level: 'warning',
    summary: 'A decision is past the date it said it must be reviewed by.',
  },
  'proposal-too-old': { level: 'warning', summary: 'A proposal has stayed proposed longer than allowed.' },
  'broken-link': { level: 'warning', summary: 'A record links to a file that is not in the repository.' },
};

function ruleOf(kind: string): { level: Level; summary: string } {
  return RULES[kind] ?? { level: 'error', summary: `Decision corpus problem: ${kind}.` };
}

/** GitHub's workflow-command escaping: data escapes %, CR, LF; properties also `:` and `,`. */
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** One workflow command per finding, newline-terminated; empty when there are none. */
export function githubAnnotations(findings: readonly CheckFindingView[]): string {
  return findings
    .map((f) => {
      const props = [`file=${escapeProperty(f.path)}`];
      if (f.line !== null) props.push(`line=${f.line}`);
      props.push(`title=${escapeProperty(`moor: ${f.kind}`)}`);
      return `::${ruleOf(f.kind).level} ${props.join(',')}::${escapeData(f.message)}\n`;
    })
    .join('');
}

/**
 * A file path as an RFC 3986 path: each segment percent-encoded as UTF-8, so
 * `#`, `?`, `%`, spaces, controls and non-ASCII names stay part of the path
 * (encodeURI leaves `#` and `?`, which would start a fragment or a query and
 * point a reader at another file). A lone surrogate, which UTF-8 cannot hold,
 * becomes U+FFFD rather than an exception.
 */
export function uriPath(path: string): string {
  return path
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

export interface SarifOptions {
  readonly toolVersion: string;
  /** Absolute workspace root: artifact URIs are relative to it (`%SRCROOT%`). */
  readonly root: string;
}

/** A SARIF 2.1.0 log with one run: a rule per finding kind, a result per finding. */
export function sarifLog(
  findings: readonly CheckFindingView[],
  options: SarifOptions,
): Record<string, unknown> {
  const kinds = [...new Set(findings.map((f) => f.kind))].sort();
  const ruleIndex = new Map(kinds.map((kind, i) => [kind, i]));
  const rootUri = `file://${uriPath(options.root.endsWith('/') ? options.root : `${options.root}/`)}`;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'moor',
            version: options.toolVersion,
            rules: kinds.map((kind) => ({
              id: kind,
              name: kind,
              shortDescription: { text: ruleOf(kind).summary },
              defaultConfiguration: { level: ruleOf(kind).level },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri } },
        results: findings.map((f) => ({
          ruleId: f.kind,
          ruleIndex: ruleIndex.get(f.kind),
          level: ruleOf(f.kind).level,
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: uriPath(f.path), uriBaseId: '%SRCROOT%' },
                ...(f.line === null ? {} : { region: { startLine: f.line } }),
              },
            },
          ],
        })),
      },
    ],
  };
}
