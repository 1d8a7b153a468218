import { describe, expect, it } from 'vitest';
import { AdmissionGate } from '../../src/host/admission.js';

describe('AdmissionGate', () => {
  it('admits up to the limit, refuses beyond it, and frees a slot on release (once)', () => {
    const gate = new AdmissionGate(2);
    const a = gate.tryEnter();
    const b = gate.tryEnter();
    expect(typeof a).toBe('function');
    expect(typeof b).toBe('function');
    expect(gate.tryEnter()).toBe('busy');
    (a as () => void)();
    (a as () => void)();
    expect(gate.inFlight).toBe(1);
    expect(typeof gate.tryEnter()).toBe('function');
  });

  it('close stops admitting and resolves when the in-flight work drains', async () => {
    const gate = new AdmissionGate(4);
    const release = gate.tryEnter() as () => void;
    const closed = gate.close(1000);
    expect(gate.tryEnter()).toBe('shutting-down');
    setTimeout(release, 10);
    await expect(closed).resolves.toBe(true);
  });

  it('close reports false when the grace period ends first', async () => {
    const gate = new AdmissionGate(4);
    gate.tryEnter();
    await expect(gate.close(20)).resolves.toBe(false);
  });
});
