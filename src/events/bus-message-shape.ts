/**
 * What a bus message must look like before a daemon acts on it. Anyone who
 * may CONNECT to the database can NOTIFY on moor's channel, so a payload is
 * untrusted input: anything that is not exactly one of moor's envelopes is
 * refused here, never half-read by a handler that would throw on it.
 */
import type { ClusterMessage } from './bus.js';

export interface BusEnvelope {
  readonly from: string;
  /** The sender's number for this message (1, 2, …): a receiver accepts each once. */
  readonly seq: number;
  readonly message?: ClusterMessage;
  readonly ref?: string;
}

const LISTS: ReadonlySet<string> = new Set(['tools', 'resources', 'prompts']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(record: Record<string, unknown>, ...fields: string[]): boolean {
  return fields.every((field) => typeof record[field] === 'string');
}

/** The message when `value` is one moor sends, else undefined. */
export function clusterMessageOf(value: unknown): ClusterMessage | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.kind) {
    case 'task-status':
      return strings(value, 'taskId') ? (value as ClusterMessage) : undefined;
    case 'task-cancel':
      return strings(value, 'taskId', 'leaseOwner') ? (value as ClusterMessage) : undefined;
    case 'task-input':
      return strings(value, 'taskId', 'leaseOwner') && isRecord(value.responses)
        ? (value as ClusterMessage)
        : undefined;
    case 'binding-changed':
      return strings(value, 'sessionTag') ? (value as ClusterMessage) : undefined;
    case 'resource-updated':
      return strings(value, 'roomKey', 'uri') ? (value as ClusterMessage) : undefined;
    case 'list-changed':
      return strings(value, 'roomKey') && LISTS.has(value.list as string)
        ? (value as ClusterMessage)
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The envelope when `payload` parses to one: a sender, its message number,
 * and either a message of moor's shape or a reference (digits) to a spilled
 * payload row.
 */
export function busEnvelopeOf(payload: string): BusEnvelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.from !== 'string') return undefined;
  const { from, seq } = value;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  if (value.message !== undefined) {
    const message = clusterMessageOf(value.message);
    return message === undefined ? undefined : { from, seq, message };
  }
  if (typeof value.ref === 'string' && /^[0-9]{1,19}$/.test(value.ref)) return { from, seq, ref: value.ref };
  return undefined;
}
