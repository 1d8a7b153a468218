/**
 * The layer rules of docs/architecture.md §2 are Biome `noRestrictedImports`
 * overrides in biome.json. Each rule must actually bite: a copy of src/ with
 * one forbidden import planted fails the lint naming that file, and the copy
 * as it is passes. `biome lint` (not `check`) so that the formatting of
 * unrelated files cannot decide this test; CI's `biome check .` runs both.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const BIOME = path.join(REPO_ROOT, 'node_modules', '.bin', 'biome');

interface Plant {
  readonly rule: string;
  readonly file: string;
  readonly source: string;
}

const PLANTS: readonly Plant[] = [
  {
    rule: 'packs import no daemon',
    file: 'src/packs/decisions/tools/planted.ts',
    source: "import { acquireLock } from '../../../daemon/lock.js';\nexport { acquireLock };\n",
  },
  {
    rule: 'packs import no app',
    file: 'src/packs/testing/planted.ts',
    source: "import { IDENTITY } from '../../app/identity.js';\nexport { IDENTITY };\n",
  },
  {
    rule: 'the proxy imports no host code',
    file: 'src/proxy/planted.ts',
    source:
      "import { DEFAULT_MAX_IN_FLIGHT } from '../host/admission.js';\nexport { DEFAULT_MAX_IN_FLIGHT };\n",
  },
  {
    rule: 'the proxy imports no SDK',
    file: 'src/proxy/planted.ts',
    source: "import type { Transport } from '@modelcontextprotocol/server';\nexport type { Transport };\n",
  },
  {
    rule: 'the proxy imports no zod',
    file: 'src/proxy/planted.ts',
    source: "import { z } from 'zod';\nexport { z };\n",
  },
  {
    rule: 'nothing imports the CLI',
    file: 'src/app/planted.ts',
    source: "import { say } from '../cli/output.js';\nexport { say };\n",
  },
  {
    rule: 'the store imports no layer above it',
    file: 'src/store/migrations/planted.ts',
    source: "import { TaskService } from '../../tasks/service.js';\nexport { TaskService };\n",
  },
  {
    rule: 'the host imports no sessions',
    file: 'src/host/planted.ts',
    source: "import { Rooms } from '../sessions/rooms.js';\nexport { Rooms };\n",
  },
  {
    rule: 'the host imports no pack',
    file: 'src/host/events/planted.ts',
    source:
      "import { createDecisionsPack } from '../../packs/decisions/pack.js';\nexport { createDecisionsPack };\n",
  },
  {
    rule: 'the sessions import no daemon',
    file: 'src/sessions/planted.ts',
    source: "import { acquireLock } from '../daemon/lock.js';\nexport { acquireLock };\n",
  },
  {
    rule: 'the sessions import no task store',
    file: 'src/sessions/planted.ts',
    source: "import type { TaskStore } from '../store/task-store.js';\nexport type { TaskStore };\n",
  },
  {
    rule: 'tasks import no sessions',
    file: 'src/tasks/planted.ts',
    source: "import { Rooms } from '../sessions/rooms.js';\nexport { Rooms };\n",
  },
  {
    rule: 'tasks import no http',
    file: 'src/tasks/planted.ts',
    source: "import { observabilityPages } from '../http/pages.js';\nexport { observabilityPages };\n",
  },
  {
    rule: 'protocol imports no SDK',
    file: 'src/protocol/planted.ts',
    source: "import type { Transport } from '@modelcontextprotocol/server';\nexport type { Transport };\n",
  },
  {
    rule: 'protocol imports no host',
    file: 'src/protocol/planted.ts',
    source: "import { Catalog } from '../host/catalog.js';\nexport { Catalog };\n",
  },
  {
    rule: 'observe imports no http',
    file: 'src/observe/planted.ts',
    source: "import { observabilityPages } from '../http/pages.js';\nexport { observabilityPages };\n",
  },
];

let copy: string;

function lint(): { status: number | null; output: string } {
  const run = spawnSync(BIOME, ['lint', '--colors=off', '--max-diagnostics=50', 'src'], {
    cwd: copy,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-layers-'));
  fs.cpSync(path.join(REPO_ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
  for (const file of ['biome.json', 'tsconfig.json', '.gitignore'])
    fs.copyFileSync(path.join(REPO_ROOT, file), path.join(copy, file));
});

afterAll(() => {
  fs.rmSync(copy, { recursive: true, force: true });
});

describe('layer rules in biome.json', () => {
  it('pass on src as it is', () => {
    const { status, output } = lint();
    expect(output).not.toMatch(/noRestrictedImports/);
    expect(status, output).toBe(0);
  });

  for (const plant of PLANTS) {
    it(`fail when broken: ${plant.rule}`, () => {
      const target = path.join(copy, plant.file);
      fs.writeFileSync(target, plant.source);
      try {
        const { status, output } = lint();
        expect(status, output).not.toBe(0);
        expect(output).toContain(`${plant.file}:1:`);
        expect(output).toMatch(/lint\/style\/noRestrictedImports/);
      } finally {
        fs.rmSync(target);
      }
    });
  }
});
