/**
 * `moor sessions list|show|drop`: the daemon's sessions, for people. A
 * session is shown by a prefix of its key and named by any prefix of it.
 * Printing only; the socket exchange is src/app/control/sessions-control.ts.
 */
import type { Command } from 'commander';
import { askDaemonSessions } from '../app/control/sessions-control.js';
import type { SessionSummary, SessionsControlRequest, SessionWorkspace } from '../protocol/hello.js';
import { replyToShow } from './control-reply.js';
import { fail, say } from './output.js';

interface SessionsOptions {
  readonly json?: boolean;
}

/** `name version` of the session's client, or "-" when its handshake named none. */
function clientLabel(s: SessionSummary): string {
  return s.client === null ? '-' : `${s.client.name} ${s.client.version}`.trim();
}

function workspaceLine(w: SessionWorkspace): string {
  const where = w.decisions === null ? w.root : `${w.root} (decisions in ${w.decisions})`;
  const counts =
    w.decisionCount === null ? 'not loaded yet' : `${w.decisionCount} decisions, ${w.problems ?? 0} problems`;
  return `${where}: ${counts}${w.loaded ? ', room held' : ''}`;
}

/** One session in a few lines (also what `moor daemon status` prints per session). */
export function printSession(s: SessionSummary, indent = ''): void {
  const where = s.inMemory ? `${s.connections} connections` : 'stored only';
  say(`${indent}${s.keyPrefix}  ${where}, last used ${s.lastUsedAt}`);
  say(`${indent}  client: ${clientLabel(s)}`);
  say(`${indent}  active: ${s.active === null ? 'none' : workspaceLine(s.active)}`);
  for (const parked of s.parked) say(`${indent}  parked: ${workspaceLine(parked)}`);
}

function table(sessions: readonly SessionSummary[]): void {
  if (sessions.length === 0) {
    say('no sessions');
    return;
  }
  // Prefixes grow past 12 characters when keys share a start: the column is as wide as the longest.
  const keyWidth = Math.max(14, ...sessions.map((s) => s.keyPrefix.length));
  const clientWidth = Math.max(6, ...sessions.map((s) => clientLabel(s).length));
  say(
    `${'SESSION'.padEnd(keyWidth)}  ${'CLIENT'.padEnd(clientWidth)}  ${'CONN'.padEnd(6)}  ${'PARKED'.padEnd(6)}  ${'LAST USED'.padEnd(19)}  ACTIVE`,
  );
  for (const s of sessions) {
    const connections = s.inMemory ? String(s.connections) : 'stored';
    const used = s.lastUsedAt.replace('T', ' ').slice(0, 19);
    say(
      `${s.keyPrefix.padEnd(keyWidth)}  ${clientLabel(s).padEnd(clientWidth)}  ${connections.padEnd(6)}  ${String(s.parked.length).padEnd(6)}  ${used.padEnd(19)}  ${s.active?.root ?? '-'}`,
    );
  }
}

async function run(request: SessionsControlRequest, options: SessionsOptions): Promise<void> {
  const reply = replyToShow(
    await askDaemonSessions(request),
    options.json === true,
    'start it to see its sessions',
  );
  if (reply === undefined) return;
  const sessions = reply.sessions ?? [];
  if (options.json) {
    const one = sessions[0] ?? null;
    const view =
      request.action === 'list' ? { sessions } : request.action === 'drop' ? { dropped: one } : one;
    say(JSON.stringify(view, null, 2));
    return;
  }
  if (request.action === 'list') table(sessions);
  else if (sessions[0] !== undefined) {
    if (request.action === 'drop') say(`dropped session ${sessions[0].keyPrefix}; it had:`);
    printSession(sessions[0]);
    if (sessions[0].lastDrop !== null)
      say(`  last dropped: ${sessions[0].lastDrop.root} (${sessions[0].lastDrop.reason})`);
  }
}

/** A prefix as copied from a listing may end in "…"; the daemon is sent the characters before it. */
function prefixOf(given: string): string {
  return given.replace(/…$/, '');
}

export function registerSessions(program: Command): void {
  const sessions = program
    .command('sessions')
    .description("the daemon's sessions: each one's active and parked workspaces (keys shown by prefix)");
  sessions
    .command('list')
    .description('every session, in memory or only stored, most recently used first')
    .option('--json', 'print JSON')
    .action(async (options: SessionsOptions) => {
      try {
        await run({ action: 'list' }, options);
      } catch (error) {
        fail(error);
      }
    });
  sessions
    .command('show')
    .argument('<prefix>', 'the start of the session key (as `moor sessions list` shows it)')
    .description("one session's workspaces and last drop")
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: SessionsOptions) => {
      try {
        await run({ action: 'show', prefix: prefixOf(prefix) }, options);
      } catch (error) {
        fail(error);
      }
    });
  sessions
    .command('drop')
    .argument('<prefix>', 'the start of the session key')
    .description(
      'forget a session: its bindings leave memory and the store, its rooms are released; a connection of it still open starts the session again',
    )
    .option('--json', 'print JSON')
    .action(async (prefix: string, options: SessionsOptions) => {
      try {
        await run({ action: 'drop', prefix: prefixOf(prefix) }, options);
      } catch (error) {
        fail(error);
      }
    });
}
