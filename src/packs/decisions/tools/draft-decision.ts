/**
 * draft_decision: writes a new, proposed decision record. Served only when
 * the daemon allows writes (`--allow-writes`). It first asks the person to
 * confirm (and for the context when the call gave none) through
 * ctx.requestInput — tasks/update inside a task, a multi-round-trip
 * `input_required` on a synchronous 2026-07-28 call, elicitation on a 2025
 * connection — then writes the record in the corpus's dominant format
 * (MADR, Nygard or log4brains: whichever most records use) with the next
 * free number, zero-padded like the others. It never overwrites and never
 * reuses a number, even across processes (see writeRecord).
 *
 * Everything before the question is free of side effects (on the MRTR path
 * the handler runs again from the start once answered).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InputResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ToolError } from '../../../errors.js';
import { defineTool, lazily } from '../../../host/pack.js';
import type { DecisionCorpus as Corpus } from '../corpus/corpus-view.js';
import type { DecisionFormat } from '../corpus/model.js';
import type { DecisionsState } from '../state.js';
import { draftTarget, logNameSchema } from './log-choice.js';
import { maxBytes } from './shared.js';

// Built on first use (lazily): a one-shot command calls one tool of the pack.
const schemas = lazily(() => {
  const input = z.strictObject({
    title: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .refine((t) => !/[\r\n]/.test(t), 'must be one line')
      .describe('The decision in a few words, e.g. "Use SQLite for storage".'),
    context: z
      .string()
      .refine(maxBytes(20_000), 'must be at most 20000 bytes')
      .optional()
      .describe('Why a decision is needed (the problem and its forces). Asked for when omitted.'),
    log: logNameSchema()
      .optional()
      .describe('In a repository with several decision logs (a monorepo), the one the record goes into.'),
  });

  const output = z.object({
    created: z.boolean(),
    id: z.string().nullable(),
    path: z.string().nullable(),
    format: z.enum(['madr', 'nygard', 'log4brains']),
    message: z.string(),
  });
  return { input, output };
});
type Schemas = ReturnType<typeof schemas>;

/** Where and how the next record would be written. */
export interface DraftPlan {
  readonly format: DecisionFormat;
  readonly number: number;
  readonly width: number;
  /** Absolute folder the record goes into. */
  readonly folder: string;
}

export function planDraft(corpus: Corpus): DraftPlan {
  const formats: Record<DecisionFormat, number> = { madr: 0, nygard: 0, log4brains: 0 };
  const widths = new Map<number, number>();
  let max = 0;
  let newest: string | undefined;
  for (const d of corpus.decisions) {
    formats[d.format] += 1;
    if (d.number === null) continue;
    const digits = /^(\d+)/.exec(path.posix.basename(d.corpusPath))?.[1];
    if (digits !== undefined) widths.set(digits.length, (widths.get(digits.length) ?? 0) + 1);
    if (d.number >= max) {
      max = d.number;
      newest = d.corpusPath;
    }
  }
  // Ties go to MADR, then Nygard: the order the formats are listed in the docs.
  const format = (['madr', 'nygard', 'log4brains'] as const).reduce((best, f) =>
    formats[f] > formats[best] ? f : best,
  );
  let width = 4;
  let seen = 0;
  for (const [w, n] of widths) if (n > seen || (n === seen && w > width)) [width, seen] = [w, n];
  const sub = newest === undefined ? '.' : path.posix.dirname(newest);
  return { format, number: max + 1, width, folder: path.join(corpus.corpusDir, sub) };
}

export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug.length > 0 ? slug : 'decision';
}

export function renderRecord(
  format: DecisionFormat,
  number: number,
  title: string,
  context: string,
  date: string,
): string {
  const body = context.trim().length > 0 ? context.trim() : 'To be written.';
  switch (format) {
    case 'nygard':
      return `# ${number}. ${title}\n\nDate: ${date}\n\n## Status\n\nProposed\n\n## Context\n\n${body}\n\n## Decision\n\nTo be decided.\n\n## Consequences\n\nTo be worked out.\n`;
    case 'log4brains':
      return `# ${title}\n\n- Status: proposed\n- Date: ${date}\n\n## Context and Problem Statement\n\n${body}\n\n## Decision Outcome\n\nTo be decided.\n`;
    default:
      return `---\nstatus: proposed\ndate: ${date}\n---\n# ${title}\n\n## Context and Problem Statement\n\n${body}\n\n## Decision Outcome\n\nTo be decided.\n`;
  }
}

/**
 * Writes the record under the first free number from plan.number on. A
 * readdir alone would race: two drafts (in one daemon, two processes or two
 * daemons sharing the folder) both see a number free and both take it under
 * different slugs. So a number is first claimed by creating its claim file
 * with O_EXCL, which exactly one writer wins; only the winner checks that no
 * record already carries the number and creates it ('wx', never
 * overwriting). The claim is released after the record exists, so a later
 * claimer sees the record and moves on. A claim left by a crashed writer
 * only makes later drafts skip that number.
 */
export async function writeRecord(
  plan: DraftPlan,
  title: string,
  context: string,
  date: string,
): Promise<{ file: string; id: string }> {
  const slug = slugOf(title);
  await fs.promises.mkdir(plan.folder, { recursive: true });
  for (let n = plan.number, tries = 0; tries < 1000; n++, tries++) {
    const id = String(n).padStart(plan.width, '0');
    const claim = path.join(plan.folder, `.moor-draft-${n}.claim`);
    if (!(await claimNumber(claim))) continue;
    try {
      const names = await fs.promises.readdir(plan.folder);
      if (names.some((name) => numberOfName(name) === n)) continue;
      const file = path.join(plan.folder, `${id}-${slug}.md`);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'wx', 0o644);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      try {
        await handle.writeFile(renderRecord(plan.format, n, title, context, date), 'utf8');
      } finally {
        await handle.close();
      }
      return { file, id };
    } finally {
      await fs.promises.rm(claim, { force: true });
    }
  }
  throw new ToolError('DECISION_NUMBER_EXHAUSTED', `No free decision number found in ${plan.folder}.`);
}

/** True when this writer created the claim file, false when another holds it. */
async function claimNumber(claim: string): Promise<boolean> {
  try {
    const handle = await fs.promises.open(claim, 'wx', 0o600);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The number a record file's name starts with ("0013-x.md", "13.md"), or undefined. */
function numberOfName(name: string): number | undefined {
  const digits = /^(\d+)(?:-|\.md$)/.exec(name)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

function accepted(response: InputResponse | undefined): Record<string, unknown> | undefined {
  const r = response as { action?: unknown; content?: unknown } | undefined;
  return r?.action === 'accept' && typeof r.content === 'object' && r.content !== null
    ? (r.content as Record<string, unknown>)
    : undefined;
}

export function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export const draftDecision = defineTool<DecisionsState, Schemas['input'], Schemas['output']>({
  name: 'draft_decision',
  title: 'Draft a decision',
  description:
    'Writes a new decision record (status proposed) into the corpus, in the format most records use and with the next free number. Asks the user to confirm first, and for the context when none is given. Never overwrites a file.',
  get input() {
    return schemas().input;
  },
  get output() {
    return schemas().output;
  },
  annotations: {
    title: 'Draft a decision',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  task: { eligibility: 'optional', cancellation: 'abort' },
  writes: true,
  async handler(args, ctx) {
    const target = draftTarget(ctx.state, args.log);
    const plan = planDraft(target.corpus);
    const shown = (plain: string) => (target.log === null ? plain : `${target.log}:${plain}`);
    const id = shown(String(plan.number).padStart(plan.width, '0'));
    const where = path.relative(ctx.workspaceRoot, path.join(plan.folder, `${id}-${slugOf(args.title)}.md`));
    const needContext = args.context === undefined || args.context.trim() === '';
    const properties: Record<string, Record<string, unknown>> = {
      confirm: { type: 'boolean', title: 'Write it', description: `Create ${where}` },
    };
    if (needContext)
      properties.context = {
        type: 'string',
        title: 'Context',
        description: 'Why is a decision needed? The problem and its forces.',
      };
    // Loaded here, not at the top: the read-only tools (and the CLI that runs them in-process) never need the SDK.
    const { inputRequired } = await import('@modelcontextprotocol/server');
    const answers = await ctx.requestInput({
      draft: inputRequired.elicit({
        message: `Write a new ${plan.format.toUpperCase()} decision record ${id} "${args.title}" as ${where}?${needContext ? ' Describe its context.' : ''}`,
        requestedSchema: {
          type: 'object',
          properties,
          required: needContext ? ['confirm', 'context'] : ['confirm'],
        } as never,
      }),
    });
    const answer = accepted(answers.draft);
    if (answer?.confirm !== true) {
      const message = 'Nothing written: the user did not confirm the new decision record.';
      return {
        structured: { created: false, id: null, path: null, format: plan.format, message },
        text: message,
      };
    }
    const context = needContext
      ? typeof answer.context === 'string'
        ? answer.context
        : ''
      : (args.context as string);
    ctx.signal.throwIfAborted();
    const written = await writeRecord(plan, args.title, context, today());
    const rel = path.relative(ctx.workspaceRoot, written.file).split(path.sep).join('/');
    const message = `Wrote decision ${shown(written.id)} "${args.title}" (proposed, ${plan.format}) to ${rel}.`;
    return {
      structured: { created: true, id: shown(written.id), path: rel, format: plan.format, message },
      text: message,
    };
  },
});
