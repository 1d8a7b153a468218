/**
 * A daemon's lease check after PostgreSQL was unreachable (a relay of this
 * test's own that it cuts): its peers were cut off too, so their leases ran
 * out without their dying. It fails no lapsed task until a full lease after
 * the store answers again, and then fails a really dead daemon's task as
 * before.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isMoorError } from '../../src/errors.js';
import { openStores } from '../../src/store/open.js';
import { LEASE_EXPIRED_MESSAGE, TaskService } from '../../src/tasks/service.js';
import { dropSchemas, freshSchema, pgUrl } from '../helpers/pg.js';
import { cuttableLink, viaLink } from '../helpers/tcp-cut.js';

const url = pgUrl();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(dropSchemas);

const LEASE_MS = 60_000;

describe.skipIf(url === null)('lease checks after a store outage', () => {
  it('expires no lapsed lease until a full lease after the store answers again', async () => {
    let clock = Date.now();
    const target = new URL(url ?? '');
    const link = await cuttableLink(target.hostname, Number(target.port || 5432));
    cleanups.push(() => link.close());
    const stores = await openStores({
      kind: 'postgres',
      connect: { url: viaLink(url ?? '', link), schema: freshSchema() },
    });
    cleanups.push(() => stores.close());
    const service = new TaskService({
      store: stores.tasks,
      incarnation: 'daemon-b',
      sweepIntervalMs: 0,
      leaseMs: LEASE_MS,
      now: () => clock,
    });
    cleanups.push(() => service.close());
    await service.ready;
    // A task another daemon runs (its row as that daemon's create leaves it).
    const task = await stores.tasks.create({
      id: 'elsewhere',
      ownerKey: 'k',
      tool: 'tool',
      createdAt: clock,
      retentionMs: LEASE_MS * 10,
      pollIntervalMs: 500,
      leaseOwner: 'daemon-a',
      leaseExpiresAt: clock + LEASE_MS,
    });

    link.cut();
    const during = await service.checkLeases().catch((e: unknown) => e);
    expect(isMoorError(during) && during.code).toBe('STORE_UNAVAILABLE');
    clock += 2 * LEASE_MS;
    link.restore();

    await service.checkLeases();
    clock += LEASE_MS - 1;
    await service.checkLeases();
    expect((await service.get(task.id, 'k')).status).toBe('working');

    clock += 1;
    await service.checkLeases();
    expect(await service.get(task.id, 'k')).toMatchObject({
      status: 'failed',
      statusMessage: LEASE_EXPIRED_MESSAGE,
      error: { message: LEASE_EXPIRED_MESSAGE },
    });
  });
});
