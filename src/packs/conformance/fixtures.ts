/**
 * Fixed payloads the conformance suite expects by value (its scenario
 * descriptions name them): a 1×1 PNG, a minimal WAV, and the texts.
 */

/** A 1×1 red PNG pixel, base64. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A WAV header with two bytes of silence, base64. */
export const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

export const STATIC_TEXT = 'This is the content of the static text resource.';
export const EMBEDDED_TEXT = 'This is an embedded resource content.';
export const WATCHED_TEXT = 'Watched resource content';
