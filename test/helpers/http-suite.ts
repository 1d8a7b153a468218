/**
 * The hooks an e2e file over spawned HTTP daemons registers: SDK clients
 * closed after each test; after the file's tests every daemon killed, its
 * state dir removed, then the file's own `cleanup` (its workspaces).
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach } from 'vitest';
import { killAll, removeStateDirs } from '../tasks/daemon-helpers.js';

/** Returns the list of clients to close after the current test. */
export function httpSuite(cleanup: () => void): Client[] {
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
  });
  afterAll(async () => {
    await killAll();
    removeStateDirs();
    cleanup();
  });
  return clients;
}
