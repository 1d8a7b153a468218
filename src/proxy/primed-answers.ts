/**
 * The daemon's answers to the handshake and the static lists, recorded at
 * build time from the real daemon (scripts/prime-answers.mjs) into
 * dist/proxy/primed-answers.json. Data only: each answer is the daemon's line
 * with a marker where the request id goes. They are used only when written
 * by this very build (the build stamp), or, installed elsewhere, when the
 * daemon's bundle is byte for byte the one they came from: another build may
 * answer otherwise.
 * When a proxy may speak them for the daemon is primed-fit.ts's question.
 */
import fs from 'node:fs';
import { buildStamp } from '../protocol/build-stamp.js';
import { type DaemonCode, daemonCodeOf } from './daemon-code.js';
import type { Id } from './wire.js';

/** Bumped when the file's shape changes: an older file is then ignored. */
export const PRIMED_FORMAT = 1;
/** Where the build writes the file: beside this module in dist/proxy. */
export const PRIMED_FILE = new URL('./primed-answers.json', import.meta.url);

/** The file as the build writes it. */
export interface PrimedFile {
  readonly format: number;
  readonly stamp: string;
  /** moor's version and the daemon bundle the answers came from, for an install where the stamp differs (daemon-code.ts). */
  readonly version?: string;
  readonly daemonCode?: DaemonCode;
  /** The JSON text standing for the request id in every answer (exactly once each). */
  readonly marker: string;
  /** The daemon's whole answer line by request key (primed-requests.ts). */
  readonly answers: Readonly<Record<string, string>>;
}

export class PrimedAnswers {
  readonly #answers: ReadonlyMap<string, { before: string; after: string }>;
  readonly #results = new Map<string, Record<string, unknown>>();

  constructor(file: PrimedFile) {
    const answers = new Map<string, { before: string; after: string }>();
    for (const [key, line] of Object.entries(file.answers)) {
      const at = line.indexOf(file.marker);
      if (at < 0 || line.indexOf(file.marker, at + 1) >= 0) continue;
      answers.set(key, { before: line.slice(0, at), after: line.slice(at + file.marker.length) });
    }
    this.#answers = answers;
  }

  has(key: string): boolean {
    return this.#answers.has(key);
  }

  /** The daemon's answer line for `key`, with `id` where it writes the id; undefined when none was recorded. */
  line(key: string, id: Id): Buffer | undefined {
    const answer = this.#answers.get(key);
    return answer && Buffer.from(answer.before + JSON.stringify(id) + answer.after);
  }

  /** The answer's result member (for what the proxy learns from a tool list). */
  result(key: string): Record<string, unknown> | undefined {
    const known = this.#results.get(key);
    if (known !== undefined) return known;
    const line = this.line(key, 0);
    if (line === undefined) return undefined;
    const result = (JSON.parse(line.toString('utf8')) as { result?: Record<string, unknown> }).result;
    if (result !== undefined) this.#results.set(key, result);
    return result;
  }
}

/** The file of this build, or undefined (missing, malformed, another build's). */
export function loadPrimedAnswers(version: string, file: URL = PRIMED_FILE): PrimedAnswers | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<PrimedFile>;
    if (parsed.format !== PRIMED_FORMAT || typeof parsed.marker !== 'string' || parsed.marker === '')
      return undefined;
    if (typeof parsed.answers !== 'object' || parsed.answers === null) return undefined;
    const stamp = buildStamp(version);
    if (stamp === undefined) return undefined;
    // serverInfo names the version, which the bundle's bytes do not hold (it is read from package.json).
    const installed = parsed.version === version && sameDaemonCode(parsed.daemonCode, new URL('../', file));
    if (parsed.stamp !== stamp && !installed) return undefined;
    return new PrimedAnswers(parsed as PrimedFile);
  } catch {
    return undefined;
  }
}

/** Whether the daemon bundle beside `dist` is the one `recorded` names, byte for byte. */
function sameDaemonCode(recorded: DaemonCode | undefined, dist: URL): boolean {
  if (recorded === undefined || typeof recorded.sha1 !== 'string' || !Array.isArray(recorded.files))
    return false;
  const now = daemonCodeOf(dist);
  return (
    now !== undefined &&
    now.sha1 === recorded.sha1 &&
    now.files.length === recorded.files.length &&
    now.files.every((name, i) => name === recorded.files[i])
  );
}
