/**
 * Who this build is: name and version from package.json, read once.
 */
import { readFileSync } from 'node:fs';
import type { ServerIdentity } from '../host/server-factory.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const IDENTITY: ServerIdentity = {
  name: packageJson.name,
  title: 'moor: architecture decisions for coding agents',
  version: packageJson.version,
};

export const SERVER_PREAMBLE = `moor serves this repository's knowledge to coding agents. Every tool is read-only and answers the same on both protocol eras.`;
