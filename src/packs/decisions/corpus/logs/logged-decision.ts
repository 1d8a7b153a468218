/**
 * A decision as a workspace of several logs shows it: its id and
 * corpus-relative path carry the log's name (`billing:0003`,
 * `billing/0003-x.md`), everything else is the log's own record. A class
 * that delegates, because the record's body is read lazily through a private
 * field that a copy or a prototype trick would not reach.
 */
import type {
  DateOrderEvidence,
  Decision,
  DecisionFormat,
  DecisionLinks,
  DecisionStatus,
  TitleSource,
} from '../model.js';

/** `billing` + `0003` → `billing:0003`. */
export function namespacedId(log: string, id: string): string {
  return `${log}:${id}`;
}

/** `billing` + `0003-x.md` → `billing/0003-x.md`. */
export function namespacedPath(log: string, corpusPath: string): string {
  return `${log}/${corpusPath}`;
}

export class LoggedDecision implements Decision {
  readonly id: string;
  readonly corpusPath: string;

  constructor(
    readonly log: string,
    readonly inner: Decision,
  ) {
    this.id = namespacedId(log, inner.id);
    this.corpusPath = namespacedPath(log, inner.corpusPath);
  }

  get number(): number | null {
    return this.inner.number;
  }
  get slug(): string {
    return this.inner.slug;
  }
  get path(): string {
    return this.inner.path;
  }
  get title(): string {
    return this.inner.title;
  }
  get status(): DecisionStatus {
    return this.inner.status;
  }
  get statusRaw(): string {
    return this.inner.statusRaw;
  }
  get date(): string | null {
    return this.inner.date;
  }
  get dateReadings(): { readonly monthFirst: string; readonly dayFirst: string } | undefined {
    return this.inner.dateReadings;
  }
  get dateOrder(): DateOrderEvidence | undefined {
    return this.inner.dateOrder;
  }
  get titleSource(): TitleSource | undefined {
    return this.inner.titleSource;
  }
  get deciders(): readonly string[] {
    return this.inner.deciders;
  }
  get consulted(): readonly string[] {
    return this.inner.consulted;
  }
  get informed(): readonly string[] {
    return this.inner.informed;
  }
  get tags(): readonly string[] {
    return this.inner.tags;
  }
  get format(): DecisionFormat {
    return this.inner.format;
  }
  get links(): DecisionLinks {
    return this.inner.links;
  }
  get governs(): readonly string[] {
    return this.inner.governs;
  }
  get body(): string {
    return this.inner.body;
  }

  toJSON(): Decision {
    const plain = JSON.parse(JSON.stringify(this.inner)) as Decision;
    return { ...plain, id: this.id, corpusPath: this.corpusPath };
  }
}
