/**
 * The daemon's side of a one-shot `moor decisions …` command: the tool runs
 * on the room the command's workspace names (loaded once, kept warm for the
 * next hook), exactly as the command would run it in its own process, and
 * the result goes back whole for the command to print.
 *
 * A one-shot run reads the folder as it is on disk now; a watcher may not
 * have reported a file saved a millisecond ago, so the corpus is re-checked
 * first (a stat per file, parsing only what changed; what changed is
 * announced to listeners like any watcher refresh). Anything the daemon
 * cannot answer as the command itself would is an error reply, and the
 * command then runs locally.
 */
import { isMoorError, MoorError } from '../../errors.js';
import type { Pack } from '../../host/pack.js';
import { ResultMemo } from '../../host/result-memo.js';
import { runTool } from '../../host/tool-run.js';
import type { DecisionsState } from '../../packs/decisions/state.js';
import { buildStamp } from '../../protocol/build-stamp.js';
import { helloError } from '../../protocol/hello.js';
import type { OneShotReply, OneShotRequest } from '../../protocol/one-shot-hello.js';
import type { Rooms } from '../../sessions/rooms.js';
import { checkedDecisions, type WorkspacePolicy } from '../../sessions/workspace-path.js';
import { IDENTITY } from '../identity.js';
import type { DaemonSessions, RoomContents } from './daemon-sessions.js';

export interface OneShotAnswersOptions {
  readonly rooms: Rooms<RoomContents>;
  readonly sessions: DaemonSessions;
  readonly policy: WorkspacePolicy;
  /** The catalog's decisions pack (a room with its own --decisions maps it to its instance). */
  readonly decisionsPack: Pack<unknown>;
  /** This daemon's build stamp (default: this build's, build-stamp.ts); without one it answers no one-shot command. */
  readonly build?: string | undefined;
  onInternalError(error: unknown, tool: string): void;
}

export function oneShotAnswers(
  options: OneShotAnswersOptions,
): (request: OneShotRequest) => Promise<OneShotReply> {
  const build = 'build' in options ? options.build : buildStamp(IDENTITY.version);
  // A hook asks the same question at every commit; the results are only ever serialized.
  const memo = new ResultMemo();
  return async (request) => {
    if (build === undefined || request.build !== build)
      return {
        error: helloError(
          new MoorError(
            'OTHER_BUILD',
            `this daemon runs ${build ?? 'an unstamped build'}, not ${request.build}`,
          ),
        ),
      };
    const definition = options.decisionsPack.tools.find((tool) => tool.name === request.tool);
    if (definition === undefined)
      return { error: helloError(new MoorError('UNKNOWN_TOOL', `Unknown tool: ${request.tool}`)) };
    let lease: ReturnType<Rooms<RoomContents>['acquire']>;
    try {
      const root = options.policy.check(request.workspace, { label: 'workspace' });
      lease = options.rooms.acquire({
        root,
        decisions: checkedDecisions(options.policy, root, request.decisions),
      });
    } catch (error) {
      return { error: refusal(error) };
    }
    try {
      const workspace = options.sessions.roomWorkspace(lease.room);
      const state = workspace.stateOf(options.decisionsPack) as DecisionsState;
      // A folder missing when the room opened may exist now: the command's own run looks again.
      if (state.kind !== 'loaded')
        return { error: helloError(new MoorError('CORPUS_NOT_FOUND', state.message)) };
      state.corpus.refresh();
      const result = await runTool(
        { pack: options.decisionsPack, definition },
        { sessionKey: undefined, workspace },
        { ...request.arguments },
        {
          signal: new AbortController().signal,
          progress: async () => {},
          memo,
          // The command's own run reports what went wrong in its own words.
          onInternalError: (error, tool) => {
            options.onInternalError(error, tool);
            throw new MoorError('INTERNAL', `the tool ${tool} failed in the daemon`);
          },
        },
      );
      return { result: result as unknown as Record<string, unknown> };
    } catch (error) {
      return { error: refusal(error) };
    } finally {
      lease.release();
    }
  };
}

function refusal(error: unknown): { readonly code: string; readonly message: string } {
  return isMoorError(error)
    ? helloError(error)
    : helloError(new MoorError('INTERNAL', 'the daemon could not run the command; its log has the details'));
}
