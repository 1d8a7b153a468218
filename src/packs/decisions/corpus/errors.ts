/**
 * Why a corpus cannot be loaded at all (as opposed to problems with single
 * records, which are reported as Problems and never thrown).
 */

export type CorpusErrorCode = 'not-found' | 'not-a-directory' | 'outside-workspace';

export class CorpusError extends Error {
  constructor(
    readonly code: CorpusErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CorpusError';
  }
}
