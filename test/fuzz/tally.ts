/**
 * What the fuzz suite sent and got back, per transport and era, printed at
 * the end so a run can be quoted.
 */

export interface Tally {
  sent: number;
  awaited: number;
  answered: number;
  /** Answers by outcome: `result`, or the JSON-RPC error code; HTTP runs also count statuses. */
  readonly outcomes: Map<string, number>;
}

const tallies = new Map<string, Tally>();

export function tally(name: string): Tally {
  let t = tallies.get(name);
  if (!t) {
    t = { sent: 0, awaited: 0, answered: 0, outcomes: new Map() };
    tallies.set(name, t);
  }
  return t;
}

export function countOutcome(t: Tally, outcome: string): void {
  t.outcomes.set(outcome, (t.outcomes.get(outcome) ?? 0) + 1);
}

/** The outcome of one JSON-RPC answer. */
export function outcomeOf(message: unknown): string {
  if (typeof message !== 'object' || message === null) return 'not-an-object';
  const m = message as { result?: unknown; error?: { code?: unknown } };
  if (m.error !== undefined) return String(m.error.code);
  if (m.result !== undefined) return 'result';
  return 'other';
}

export function printTallies(seed: number): void {
  const lines = [`fuzz (seed ${seed}):`];
  for (const [name, t] of tallies) {
    const outcomes = [...t.outcomes.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    lines.push(`  ${name}: sent ${t.sent}, awaited ${t.awaited}, answered ${t.answered}; ${outcomes}`);
  }
  console.log(lines.join('\n'));
}

/** Frames per transport and era: MOOR_FUZZ_FRAMES, else 2000. */
export const FRAMES = Number(process.env.MOOR_FUZZ_FRAMES ?? 2000);
/** MOOR_FUZZ_SEED reproduces a run; otherwise a fresh one, printed. */
export const SEED = Number(process.env.MOOR_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
