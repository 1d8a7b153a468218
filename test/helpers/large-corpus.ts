/**
 * A generated decisions folder of `count` records in supersession chains of
 * three (every third record supersedes the one before it), written into
 * `dir`: a large graph without depending on anything outside the repository.
 */
import fs from 'node:fs';
import path from 'node:path';

export function writeLargeCorpus(dir: string, count: number): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= count; n++) {
    const id = String(n).padStart(4, '0');
    const supersedes = n % 3 === 0 ? `supersedes: [${n - 1}]\n` : '';
    const status = n % 3 === 2 ? `superseded` : 'accepted';
    fs.writeFileSync(
      path.join(dir, `${id}-record-${n}.md`),
      `---\nstatus: ${status}\n${supersedes}---\n# Record ${n}\n\nWhy record ${n} was decided.\n`,
    );
  }
}
