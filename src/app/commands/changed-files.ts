/**
 * The files a change touches, as git reports them, for
 * `moor decisions context --staged` / `--since REF`: a pre-commit hook asks
 * which decisions the staged files fall under, a CI job which decisions a
 * branch touches.
 */
import { promisify } from 'node:util';
import { MoorError } from '../../errors.js';

/** git, through node:child_process loaded when first asked: most one-shot commands never run git. */
async function run(
  file: string,
  args: readonly string[],
  options: import('node:child_process').ExecFileOptions,
): Promise<{ stdout: string; stderr: string }> {
  const { execFile } = await import('node:child_process');
  const result = await promisify(execFile)(file, args, { ...options, encoding: 'utf8' });
  return { stdout: String(result.stdout), stderr: String(result.stderr) };
}

export type ChangeSet = { readonly kind: 'staged' } | { readonly kind: 'since'; readonly ref: string };

/**
 * Workspace-relative paths, sorted and unique. `staged`: what the next commit
 * holds (`git diff --cached`). `since REF`: everything the work since REF
 * changes — commits since the merge base (`REF...HEAD`), plus staged and
 * unstaged edits and untracked files, so a hook sees the change as it stands.
 * Deleted files are included: the decisions that governed them are touched too.
 */
export async function changedFiles(root: string, change: ChangeSet): Promise<string[]> {
  // Outside a repository `git diff` would fall back to comparing paths (--no-index): refuse first.
  await git(root, ['rev-parse', '--is-inside-work-tree']);
  const lists =
    change.kind === 'staged'
      ? [await git(root, ['diff', '--name-only', '--relative', '-z', '--cached'])]
      : await Promise.all([
          git(root, ['diff', '--name-only', '--relative', '-z', `${checkedRef(change.ref)}...HEAD`]),
          git(root, ['diff', '--name-only', '--relative', '-z', 'HEAD']),
          git(root, ['ls-files', '--others', '--exclude-standard', '-z']),
        ]);
  const files = new Set<string>();
  for (const list of lists) for (const file of list.split('\0')) if (file !== '') files.add(file);
  return [...files].sort();
}

/** A revision never reaches git as an option. */
function checkedRef(ref: string): string {
  if (ref === '' || ref.startsWith('-'))
    throw new MoorError('USAGE', `--since needs a git revision (a branch, tag or commit), not "${ref}"`);
  return ref;
}

/** Runs git in `cwd`; a failure is GIT_FAILED with git's own first line. */
export async function git(cwd: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run('git', ['-c', 'core.quotepath=off', ...args], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    });
    return stdout;
  } catch (error) {
    // git's first line says what went wrong; the rest is usage text.
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n')[0];
    const why = stderr || (error as Error).message;
    throw new MoorError(
      'GIT_FAILED',
      `git ${args.filter((a) => a !== '-z').join(' ')} failed in ${cwd}: ${why}`,
    );
  }
}
