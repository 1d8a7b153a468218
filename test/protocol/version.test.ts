import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../src/protocol/version.js';

describe('compareVersions', () => {
  it('orders by major, minor, patch, numerically', () => {
    expect(compareVersions('0.2.0', '0.1.0')).toBe(1);
    expect(compareVersions('0.1.0', '0.2.0')).toBe(-1);
    expect(compareVersions('0.10.0', '0.9.9')).toBe(1);
    expect(compareVersions('1.0.0', '0.99.99')).toBe(1);
    expect(compareVersions('0.1.0', '0.1.0')).toBe(0);
    expect(compareVersions('0.1.0+build.7', '0.1.0')).toBe(0);
  });

  it('puts a prerelease before its release, and compares prerelease identifiers', () => {
    expect(compareVersions('0.2.0-rc.1', '0.2.0')).toBe(-1);
    expect(compareVersions('0.2.0', '0.2.0-rc.1')).toBe(1);
    expect(compareVersions('0.2.0-rc.2', '0.2.0-rc.10')).toBe(-1);
    expect(compareVersions('0.2.0-alpha', '0.2.0-beta')).toBe(-1);
    expect(compareVersions('0.2.0-1', '0.2.0-alpha')).toBe(-1);
    expect(compareVersions('0.2.0-rc', '0.2.0-rc.1')).toBe(-1);
    expect(compareVersions('0.2.0-rc.1', '0.1.9')).toBe(1);
  });

  it('is undefined for anything that is not semver', () => {
    expect(compareVersions('1', '1.0.0')).toBeUndefined();
    expect(compareVersions('0.1.0', 'dev')).toBeUndefined();
    expect(compareVersions('', '')).toBeUndefined();
  });
});
