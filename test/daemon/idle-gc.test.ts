import { describe, expect, it } from 'vitest';
import { IdleCollector } from '../../src/daemon/idle-gc.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('IdleCollector', () => {
  it('collects once after a burst, only when quiet and nothing is in flight', async () => {
    let busy = true;
    const idle = new IdleCollector(() => busy, 30);
    for (let i = 0; i < 5; i++) idle.served();
    await sleep(80);
    expect(idle.collections).toBe(0);
    busy = false;
    await sleep(80);
    expect(idle.collections).toBe(1);
    await sleep(80);
    expect(idle.collections).toBe(1);
    idle.served();
    await sleep(80);
    expect(idle.collections).toBe(2);
    idle.stop();
  });
});
