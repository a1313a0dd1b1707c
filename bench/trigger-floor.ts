// The floor for POST /trigger on this machine: the least any server could do for what the
// benchmark asks of Flowhost, written by hand on node:http and better-sqlite3 with nothing
// else. It checks the HMAC (sha256, constant time), decodes the JSON body, stores the job
// and its log line in one SQLite file with the host's own indexes (JOB_INDEXES,
// LOG_INDEXES), the same pragmas and a checkpoint every 100 ms as the embedded store,
// commits the requests of one event-loop turn together, answers 200 after the commit,
// and writes one request line through the served logger. Its documents' `_id`s are the
// store's own (newDocumentId, creation-ordered), as the host's are: with random UUIDs
// each insert dirtied a random page of the primary key's index, and on disk the floor
// was slower than the least a server could do (5,558 req/s at 168 µs of CPU a request
// against 6,783 at 144 µs, in two runs where bare restify served 9,498 and 9,518 req/s;
// no difference on tmpfs). No routing, validation, rate
// limit, dedupe, hooks or plugins.
//
// What it reaches, next to bare restify in the same run, bounds what the targets
// can ask of any implementation here: the host's figures are read against it.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { JOB_INDEXES } from '../core/jobs/service.js';
import { newDocumentId } from '../core/store/document-shape.js';
import { LOG_INDEXES } from '../core/logs/repository.js';
import { indexStatements } from '../host/store/embedded/index-sql.js';
import { retain } from '../host/store/embedded/keep-alive.js';
import type { Logger } from '../core/kernel/logger.js';

interface Pending {
  payload: unknown;
  requestId: string;
  ip: string | undefined;
  headers: Record<string, unknown>;
  answer: (jobId: number) => void;
}

export interface FloorServer {
  url: string;
  stored(): number;
  close(): Promise<void>;
}

export async function startFloorServer(dir: string, secret: string, log: Logger): Promise<FloorServer> {
  // Wrappers kept for the life of the process, as the embedded store keeps its own (keep-alive.ts).
  const db = retain(new Database(join(dir, 'floor.db')));
  db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0');
  for (const [collection, specs] of [
    ['jobs', JOB_INDEXES],
    ['logs', LOG_INDEXES],
  ] as const) {
    const table = `"c_${collection}"`;
    db.exec(`CREATE TABLE ${table} (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    for (const spec of specs) for (const sql of indexStatements(collection, table, spec).statements) db.exec(sql);
  }
  const insertJob = retain(db.prepare('INSERT INTO "c_jobs" (_id, doc) VALUES (?, ?)'));
  const insertLog = retain(db.prepare('INSERT INTO "c_logs" (_id, doc) VALUES (?, ?)'));
  const checkpoint = retain(db.prepare('PRAGMA wal_checkpoint(PASSIVE)'));
  const count = retain(db.prepare('SELECT count(*) AS n FROM "c_jobs"'));
  const checkpoints = setInterval(() => checkpoint.get(), 100);
  let lastId = 0;
  const store = db.transaction((batch: Pending[]) =>
    batch.map((request) => {
      const jobId = ++lastId;
      const now = new Date().toISOString();
      const trigger = { payload: request.payload, received_at: now, remote_ip: request.ip, headers: request.headers, auth_mode: 'hmac' };
      insertJob.run(
        newDocumentId(),
        JSON.stringify({
          job_id: jobId,
          flow_id: 1,
          pipeline_id: 1,
          label: 'Bench flow',
          status: 'pending',
          engine_data: { webhook_trigger: trigger },
          source: 'webhook',
          created_at: now,
          queued: true,
        }),
      );
      const context = {
        job_id: jobId,
        flow_id: 1,
        pipeline_id: 1,
        trigger: 'webhook',
        request_id: request.requestId,
        auth_mode: 'hmac',
        remote_ip: request.ip,
      };
      insertLog.run(
        newDocumentId(),
        JSON.stringify({
          id: jobId,
          level: 'info',
          message: `Flow 1 triggered by webhook (request ${request.requestId}): job ${jobId} queued`,
          context,
          agent_id: null,
          user_id: null,
          created_at: now,
        }),
      );
      return jobId;
    }),
  );
  let pending: Pending[] = [];
  const commit = () => {
    const batch = pending;
    pending = [];
    const ids = store(batch);
    for (const [i, request] of batch.entries()) request.answer(ids[i]!);
  };
  const key = Buffer.from(secret);
  const server = createServer((req, res) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const sent = Buffer.from(String(req.headers['x-signature'] ?? '').replace(/^sha256=/, ''), 'hex');
      const expected = createHmac('sha256', key).update(raw).digest();
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
        res.writeHead(401).end();
        return;
      }
      const requestId = randomUUID();
      const { 'x-signature': _signature, ...headers } = req.headers;
      if (pending.length === 0) setImmediate(commit);
      pending.push({
        payload: JSON.parse(raw.toString('utf8')) as unknown,
        requestId,
        ip: req.socket.remoteAddress,
        headers,
        answer: (jobId) => {
          const body = JSON.stringify({
            success: true,
            flow_id: 1,
            flow_name: 'Bench flow',
            job_id: jobId,
            message: 'Flow "Bench flow" triggered.',
          });
          res
            .writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': requestId })
            .end(body);
          log.info(
            {
              req_id: requestId,
              method: req.method,
              url: req.url,
              route: '/trigger/{flow_id}',
              status: 200,
              ms: Math.round((performance.now() - started) * 10) / 10,
            },
            'request',
          );
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/trigger/1`,
    stored: () => (count.get() as { n: number }).n,
    async close() {
      clearInterval(checkpoints);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}
