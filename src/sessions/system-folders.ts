/**
 * Folders a daemon running as root never serves as a workspace: the file
 * system root and the operating system's own trees. Such a daemon owns them
 * all, so the usual "owned by the daemon's user" rule would let any client
 * that reaches it read /etc or /root through `Moor-Workspace` or a hello.
 * Which folders those are is protocol/system-folders.ts's list, which a
 * proxy answering for a daemon it started consults too.
 */
import { MoorError } from '../errors.js';
import { isSystemFolder } from '../protocol/system-folders.js';

export { isSystemFolder };

/** Throws WORKSPACE_INVALID when this process runs as root and `root` is a system folder. */
export function refuseSystemFolder(root: string, uid: number | undefined = process.getuid?.()): void {
  if (uid === 0 && isSystemFolder(root)) {
    throw new MoorError(
      'WORKSPACE_INVALID',
      `workspace ${root} is a system folder: the daemon runs as root and never serves one as a workspace.`,
    );
  }
}
