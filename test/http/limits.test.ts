import { describe, expect, it } from 'vitest';
import { effectiveMaxConnections, softFdLimit } from '../../src/http/limits.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            256                  4096                 files
Max locked memory         8388608              8388608              bytes
`;

describe('the HTTP connection cap', () => {
  it('reads the soft open-files limit from /proc/self/limits text', () => {
    expect(softFdLimit(LIMITS)).toBe(256);
    expect(softFdLimit(LIMITS.replace('256 ', 'unlimited '))).toBeUndefined();
    expect(softFdLimit('nothing here')).toBeUndefined();
  });

  it('keeps the configured cap below half the fd limit, and at least one', () => {
    expect(effectiveMaxConnections(512, 1024)).toBe(512);
    expect(effectiveMaxConnections(1000, 256)).toBe(128);
    expect(effectiveMaxConnections(10, 256)).toBe(10);
    expect(effectiveMaxConnections(512, 1)).toBe(1);
    expect(effectiveMaxConnections(512, undefined)).toBe(512);
  });
});
