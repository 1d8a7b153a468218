/**
 * How tasks look on the wire: the Task fields, CreateTaskResult and the
 * DetailedTask of tasks/get, the not-found error (one shape for unknown,
 * expired and foreign ids), task ids, and a thrown value as the JSON-RPC
 * error a failed task carries.
 */
import { randomBytes } from 'node:crypto';
import type { InputResponse } from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors.js';
import { protocolError } from '../host/protocol-error.js';
import type { TaskError, TaskRecord } from '../store/task-store.js';
import { ttlMsOf } from '../store/task-store.js';

/** The wire error for an unknown, expired or foreign task: one shape for all three. */
export function taskNotFound(taskId: unknown): ProtocolError {
  return protocolError(
    'TASK_NOT_FOUND',
    `No task ${typeof taskId === 'string' ? JSON.stringify(taskId.slice(0, 200)) : ''}: it does not exist or has expired.`.replace(
      'task : ',
      'task: ',
    ),
  );
}

/**
 * Task ids: 144 bits from the OS CSPRNG, base64url, never starting with '-':
 * an operator pastes them as arguments (`moor tasks get <id>`), and a leading
 * dash would be read as an option (one id in 64 did).
 */
export function newTaskId(): string {
  const id = randomBytes(18).toString('base64url');
  return id.startsWith('-') ? `t${id.slice(1)}` : id;
}

/** The Task fields every task shape carries (CreateTaskResult without resultType). */
export function createTaskFields(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== null ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: ttlMsOf(task),
    pollIntervalMs: task.pollIntervalMs,
  };
}

export function createTaskResult(task: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...createTaskFields(task) };
}

/** The DetailedTask for tasks/get. */
export function detailedTask(task: TaskRecord): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    ...createTaskFields(task),
    resultType: 'complete',
  };
  if (task.status === 'completed') wire.result = task.result ?? { content: [] };
  else if (task.status === 'failed')
    wire.error = task.error ?? { code: JsonRpcCode.InternalError, message: 'Task failed' };
  else if (task.status === 'input_required') wire.inputRequests = task.inputRequests ?? {};
  return wire;
}

export function isInputResponse(value: unknown): value is InputResponse {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A thrown value as the JSON-RPC error a failed task carries. */
export function toTaskError(error: unknown): TaskError {
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined ? { data: error.data } : {}),
    };
  }
  return {
    code: JsonRpcCode.InternalError,
    message: 'The task failed unexpectedly; the daemon log has the details.',
  };
}
