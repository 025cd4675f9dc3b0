/**
 * Proof for issue 18: the S3 test server (radosgw) comes up while every core is busy. For each run it
 * spawns one CPU-bound child per core, starts the server with radosgw forced (so the s3rver fallback cannot
 * pass for it), round-trips an object with PutObject/GetObject, and reports the start time and how much CPU
 * the spinners took meanwhile. A script, not a test: each run keeps both cores pegged for about 20 s.
 *
 *   npx tsx test/services/s3-start-under-load.ts [runs]     (default 3; exit status 1 on the first failure)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type S3TestServer, startS3Server } from './s3-server.js';

/** Linux's USER_HZ, the unit of the CPU times in /proc/<pid>/stat, is 100 on every mainstream build. */
const TICKS_PER_SECOND = 100;

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? '3');
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a positive integer, got ${runs}`);
  const cores = availableParallelism();
  for (let run = 1; run <= runs; run += 1) {
    const spinners = Array.from({ length: cores }, () =>
      spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
    );
    const started = Date.now();
    let server: S3TestServer | null = null;
    try {
      server = await startS3Server('radosgw');
      const startMs = Date.now() - started;
      await roundTrip(server);
      const wallSeconds = (Date.now() - started) / 1000;
      if (spinners.some((child) => child.exitCode !== null || child.signalCode !== null)) {
        throw new Error('a CPU-bound child ended before the server was up: the proof ran without full load');
      }
      const busy = spinners.map((child) => cpuSeconds(child) / wallSeconds);
      console.log(
        `run ${run}/${runs}: radosgw up in ${(startMs / 1000).toFixed(1)} s and answered PutObject/GetObject ` +
          `while ${cores} CPU-bound children took ${busy.map((share) => `${Math.round(share * 100)}%`).join(', ')} of a core each`,
      );
    } finally {
      for (const child of spinners) child.kill('SIGKILL');
      await server?.stop();
    }
  }
}

async function roundTrip(server: S3TestServer): Promise<void> {
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    const body = randomBytes(64 * 1024);
    const key = `under-load/${randomBytes(4).toString('hex')}`;
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: key, Body: body }));
    const got = await client.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
    const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    if (!bytes.equals(body))
      throw new Error(`GetObject returned ${bytes.length} bytes that differ from the put`);
  } finally {
    client.destroy();
  }
}

/** User plus system CPU time of a child so far, from /proc/<pid>/stat (fields 14 and 15). */
function cpuSeconds(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces; count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
