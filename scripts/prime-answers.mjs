// `npm run build`, last step: records the daemon's own answers to the
// handshake and the static lists, in both eras, into
// dist/proxy/primed-answers.json, keyed by this build's stamp (and, for an
// install elsewhere, the daemon bundle's bytes). A `moor stdio`
// that has to start the daemon answers those requests from the file while the
// daemon comes up (src/proxy/priming.ts), so the answers must be the daemon's
// bytes: this step starts the built daemon exactly as the proxy does (same
// spawn, default flags, an environment without MOOR_PACKS, MOOR_TEST_PACK or
// MOOR_STORE), says hello on its socket and asks it, one connection per legacy
// version and capability variant, with a marker for the id. Keys come from
// the proxy's own module (dist/proxy/primed-requests.js), so recording and
// answering name a request alike. Any failure leaves no file: the proxy then
// simply waits for the daemon, as without this step.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(root, 'dist', p);
const target = dist('proxy/primed-answers.json');
const MARKER_ID = '__moor_primed_id__';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const MODERN = '2026-07-28';

const { buildStamp } = await import(dist('protocol/build-stamp.js'));
const { spawnDaemon, connectDaemon } = await import(dist('protocol/daemon-link.js'));
const { statePaths } = await import(dist('protocol/state-dir.js'));
const { initializeKey, legacyListKey, modernKey, PRIMED_DISCOVER, PRIMED_LIST_METHODS } = await import(
  dist('proxy/primed-requests.js')
);
const { PRIMED_FORMAT } = await import(dist('proxy/primed-answers.js'));
const { daemonCodeOf } = await import(dist('proxy/daemon-code.js'));
const { SUPPORTED_PROTOCOL_VERSIONS } = await import('@modelcontextprotocol/server');

const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const legacyVersions = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < MODERN);

/** One session connection: requests answered in order; notifications sent as they are. */
async function session(paths, workspace) {
  const hello = {
    moor: 1,
    sessionKey: `moor-${randomBytes(16).toString('hex')}`,
    client: { name: 'moor-prime', version },
    workspace,
  };
  const outcome = await connectDaemon(paths.socket, hello);
  if (outcome.kind !== 'connected') throw new Error(`the daemon did not take the session (${outcome.kind})`);
  const { socket, rest } = outcome.link;
  let buffer = rest.toString('utf8');
  let waiting;
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.includes(JSON.stringify(MARKER_ID))) waiting?.(line);
      nl = buffer.indexOf('\n');
    }
  });
  socket.resume();
  return {
    ask(method, params) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 15_000);
        waiting = (line) => {
          clearTimeout(timer);
          resolve(line);
        };
        socket.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: MARKER_ID, method, ...(params ? { params } : {}) })}\n`,
        );
      });
    },
    notify(method) {
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
    close() {
      socket.destroy();
    },
  };
}

/** A result line with the marker exactly once; anything else is not recorded. */
function keep(answers, key, line) {
  const marker = JSON.stringify(MARKER_ID);
  const at = line.indexOf(marker);
  if (at < 0 || line.indexOf(marker, at + 1) >= 0 || JSON.parse(line).result === undefined)
    throw new Error(`${key}: unexpected answer ${line.slice(0, 200)}`);
  answers[key] = line;
}

async function record(paths, workspace) {
  const answers = {};
  for (const v of legacyVersions) {
    for (const tasks of [false, true]) {
      const s = await session(paths, workspace);
      const capabilities = tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {};
      const init = { protocolVersion: v, capabilities, clientInfo: { name: 'moor-prime', version } };
      keep(answers, initializeKey(v, tasks), await s.ask('initialize', init));
      s.notify('notifications/initialized');
      if (!tasks) for (const m of PRIMED_LIST_METHODS) keep(answers, legacyListKey(m, v), await s.ask(m));
      s.close();
    }
  }
  const s = await session(paths, workspace);
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'moor-prime', version },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  for (const m of [PRIMED_DISCOVER, ...PRIMED_LIST_METHODS])
    keep(answers, modernKey(m), await s.ask(m, { _meta }));
  s.close();
  return answers;
}

async function main() {
  fs.rmSync(target, { force: true });
  const stamp = buildStamp(version);
  if (stamp === undefined) throw new Error('no build stamp');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-prime-'));
  fs.chmodSync(tmp, 0o700);
  const stateDir = path.join(tmp, 'state');
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(stateDir, { mode: 0o700 });
  fs.mkdirSync(workspace);
  // The daemon inherits this environment: exactly what a proxy's default start would give it.
  for (const name of Object.keys(process.env)) if (/^(MOOR_|OTEL_)/.test(name)) delete process.env[name];
  const paths = statePaths(stateDir);
  try {
    spawnDaemon(paths);
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        const answers = await record(paths, workspace);
        fs.writeFileSync(
          target,
          `${JSON.stringify({
            format: PRIMED_FORMAT,
            stamp,
            // An install elsewhere (npm pack, then npm install) has another stamp: the version and the bundle's bytes vouch then.
            version,
            daemonCode: daemonCodeOf(pathToFileURL(`${path.join(root, 'dist')}/`)),
            marker: JSON.stringify(MARKER_ID),
            answers,
          })}\n`,
        );
        return Object.keys(answers).length;
      } catch (error) {
        if (Date.now() > deadline || fs.existsSync(paths.socket)) throw error;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  } finally {
    spawnSync(process.execPath, [dist('cli/main.js'), 'daemon', 'stop'], {
      env: { ...process.env, MOOR_STATE_DIR: stateDir },
      stdio: 'ignore',
    });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  const count = await main();
  console.log(`prime-answers: ${count} answers primed for a cold moor stdio`);
} catch (error) {
  fs.rmSync(target, { force: true });
  console.warn(`prime-answers: none recorded (${error?.message ?? error}); moor stdio waits for the daemon`);
}
