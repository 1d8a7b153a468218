/**
 * `moor tasks list|get|cancel`: the daemon's durable tasks, for people.
 * Printing only; the socket exchange is src/app/control/tasks-control.ts.
 */
import type { Command } from 'commander';
import { askDaemonTasks } from '../app/control/tasks-control.js';
import type { TasksControlRequest } from '../protocol/hello.js';
import { replyToShow } from './control-reply.js';
import { fail, say } from './output.js';

interface TasksOptions {
  readonly session?: string;
  readonly json?: boolean;
}

type TaskView = Record<string, unknown>;

function cell(value: unknown, width: number): string {
  const text = value === undefined || value === null ? '-' : String(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function table(tasks: readonly TaskView[]): void {
  if (tasks.length === 0) {
    say('no tasks');
    return;
  }
  say(
    `${cell('TASK', 24)}  ${cell('STATUS', 14)}  ${cell('TOOL', 18)}  ${cell('OWNER', 14)}  ${cell('CREATED', 20)}  MESSAGE`,
  );
  for (const t of tasks) {
    const created = typeof t.createdAt === 'string' ? t.createdAt.replace('T', ' ').slice(0, 19) : '-';
    say(
      `${cell(t.taskId, 24)}  ${cell(t.status, 14)}  ${cell(t.tool, 18)}  ${cell(t.owner, 14)}  ${cell(created, 20)}  ${String(t.statusMessage ?? '')}`,
    );
  }
}

function detail(task: TaskView): void {
  say(`task ${String(task.taskId)}`);
  for (const key of ['status', 'statusMessage', 'tool', 'owner', 'createdAt', 'lastUpdatedAt', 'ttlMs']) {
    if (task[key] !== undefined)
      say(`  ${`${key}:`.padEnd(15)}${task[key] === null ? '-' : String(task[key])}`);
  }
  if (task.inputRequests !== undefined) say(`  inputRequests: ${JSON.stringify(task.inputRequests)}`);
  if (task.error !== undefined) say(`  error:         ${JSON.stringify(task.error)}`);
  if (task.result !== undefined) {
    const content = (task.result as { content?: Array<{ type?: string; text?: string }> }).content ?? [];
    const text = content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
    say('  result:');
    for (const line of text.split('\n')) say(`    ${line}`);
  }
}

async function run(request: TasksControlRequest, options: TasksOptions): Promise<void> {
  const reply = replyToShow(await askDaemonTasks(request), options.json === true, 'it holds no tasks');
  if (reply === undefined) return;
  const tasks = reply.tasks ?? [];
  if (options.json) {
    say(JSON.stringify(request.action === 'list' ? { tasks } : (tasks[0] ?? null), null, 2));
    return;
  }
  if (request.action === 'list') table(tasks);
  else if (tasks[0] !== undefined) detail(tasks[0]);
}

function common(command: Command, sessionHelp: string): Command {
  return command.option('--session <key>', sessionHelp).option('--json', 'print JSON');
}

export function registerTasks(program: Command): void {
  const tasks = program
    .command('tasks')
    .description("the daemon's durable tasks (long tool calls that outlive their connection)");
  common(
    tasks.command('list').description('tasks still readable, newest first'),
    "only this session key's tasks (default: every task of the daemon: the daemon and its socket are yours)",
  ).action(async (options: TasksOptions) => {
    try {
      await run({ action: 'list', ...(options.session ? { sessionKey: options.session } : {}) }, options);
    } catch (error) {
      fail(error);
    }
  });
  common(
    tasks.command('get').argument('<taskId>', 'the task id').description('one task in full'),
    'the session key that owns it (default: whichever owns it)',
  ).action(async (taskId: string, options: TasksOptions) => {
    try {
      await run(
        { action: 'get', taskId, ...(options.session ? { sessionKey: options.session } : {}) },
        options,
      );
    } catch (error) {
      fail(error);
    }
  });
  common(
    tasks
      .command('cancel')
      .argument('<taskId>', 'the task id')
      .description('ask a running task to stop (cooperative); prints the task afterwards'),
    'the session key that owns it (default: whichever owns it)',
  ).action(async (taskId: string, options: TasksOptions) => {
    try {
      await run(
        { action: 'cancel', taskId, ...(options.session ? { sessionKey: options.session } : {}) },
        options,
      );
    } catch (error) {
      fail(error);
    }
  });
}
