/**
 * The suite's resources: two fixed ones (text, PNG), a watched one for
 * resources/subscribe, and the template test://template/{id}/data.
 */
import type { ResourceFamily } from '../../host/pack.js';
import { PNG_BASE64, STATIC_TEXT, WATCHED_TEXT } from './fixtures.js';

export type ConformanceState = Record<string, never>;

const FIXED = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    content: { text: STATIC_TEXT },
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    content: { blob: PNG_BASE64 },
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients may subscribe to',
    mimeType: 'text/plain',
    content: { text: WATCHED_TEXT },
  },
] as const;

export const fixedResources: ResourceFamily<ConformanceState> = {
  name: 'conformance-fixed',
  title: 'Conformance fixtures',
  description: 'Fixed resources of the conformance pack',
  mimeType: 'text/plain',
  owns: (uri) => FIXED.some((r) => r.uri === uri),
  list: () =>
    FIXED.map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType })),
  read(_state, uri) {
    const found = FIXED.find((r) => r.uri === uri);
    if (!found) return undefined;
    return { uri, mimeType: found.mimeType, ...found.content };
  },
};

const TEMPLATE_PREFIX = 'test://template/';
const TEMPLATE_IDS = ['123', '456', '789'];

export const templateResources: ResourceFamily<ConformanceState> = {
  uriTemplate: 'test://template/{id}/data',
  name: 'template',
  title: 'Resource Template',
  description: 'A resource template with parameter substitution',
  mimeType: 'application/json',
  complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) },
  owns: (uri) => uri.startsWith(TEMPLATE_PREFIX),
  list: () => [],
  read(_state, uri) {
    const match = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (!match) return undefined;
    const id = decodeURIComponent(match[1] as string);
    return {
      uri,
      mimeType: 'application/json',
      text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    };
  },
};
