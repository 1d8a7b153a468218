/** A small pack for host tests: the host must work for any pack, not just decisions. */
import { z } from 'zod';
import { MoorError, ToolError } from '../../src/errors.js';
import { definePack, defineTool, type Pack } from '../../src/host/pack.js';

export interface NotesState {
  readonly notes: Map<string, string>;
  opened: number;
}

const echo = defineTool<NotesState, z.ZodObject<{ text: z.ZodString }>, z.ZodObject<{ echoed: z.ZodString }>>(
  {
    name: 'zeta_echo',
    title: 'Echo',
    description: 'Echoes text.',
    input: z.strictObject({ text: z.string().max(5) }),
    output: z.object({ echoed: z.string() }),
    annotations: { readOnlyHint: true },
    handler: (args) => ({ structured: { echoed: args.text }, text: args.text }),
  },
);

const read = defineTool<NotesState, z.ZodObject<{ key: z.ZodString }>, z.ZodObject<{ note: z.ZodString }>>({
  name: 'alpha_read',
  title: 'Read a note',
  description: 'Reads a note.',
  input: z.strictObject({ key: z.string() }),
  output: z.object({ note: z.string() }),
  annotations: { readOnlyHint: true },
  handler: (args, ctx) => {
    const note = ctx.state.notes.get(args.key);
    if (note === undefined) throw new ToolError('DECISION_NOT_FOUND', `No note ${args.key}; try "a".`);
    return { structured: { note }, text: note };
  },
});

const boom = defineTool<NotesState, z.ZodObject<Record<string, never>>, z.ZodObject<Record<string, never>>>({
  name: 'mid_boom',
  title: 'Fails',
  description: 'Throws an unexpected error.',
  input: z.strictObject({}),
  output: z.object({}),
  annotations: {},
  handler: (_args, ctx) => {
    // The session named so stands for a call whose store is down.
    if (ctx.sessionKey === STORE_DOWN_SESSION)
      throw new MoorError('STORE_UNAVAILABLE', 'store down, nothing done', { executed: false });
    throw new Error('secret internal detail');
  },
});

export const STORE_DOWN_SESSION = 'moor-store-down';

export function notesPack(): Pack<NotesState> {
  return definePack<NotesState>({
    name: 'notes',
    instructions: 'Notes pack.',
    tools: [echo, read, boom],
    resources: [
      {
        uriTemplate: 'note:///{key}',
        name: 'note',
        title: 'Note',
        description: 'A note.',
        mimeType: 'text/plain',
        owns: (uri) => uri.startsWith('note:///'),
        list: (state) =>
          [...state.notes.keys()].map((key) => ({
            uri: `note:///${key}`,
            name: key,
            mimeType: 'text/plain',
          })),
        read: (state, uri) => {
          const text = state.notes.get(uri.slice('note:///'.length));
          return text === undefined ? undefined : { uri, mimeType: 'text/plain', text };
        },
      },
    ],
    open: () => ({
      notes: new Map(
        Array.from({ length: 250 }, (_, i) => [
          i === 0 ? 'a' : `n${String(i).padStart(3, '0')}`,
          `note ${i}`,
        ]),
      ),
      opened: 1,
    }),
  });
}
