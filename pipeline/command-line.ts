import { type Command, CommanderError, InvalidArgumentError } from 'commander';

/**
 * Thrown by a command that has printed all it has to say and ends with an exit code of its own
 * (`sbm status` exits 2 when something needs attention): `runProgram` adds no message.
 */
export class CommandExit extends Error {
  override name = 'CommandExit';
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

export interface RunOptions {
  /** Print the stack of a failed command after its one-line message (`SBM_DEBUG=1`, read by the entry files). */
  debug: boolean;
}

/**
 * Runs a commander program and turns every failure into one line on stderr and an exit code,
 * so that no command prints a stack trace unless asked. The entry files read the environment
 * and end the process with `exitWhenWritten`.
 */
export async function runProgram(program: Command, argv: string[], options: RunOptions): Promise<number> {
  endQuietlyWhenReaderLeaves(process.stdout);
  // Errors commander reports itself (bad flags, --help) pass through its exit hook; an error of the same
  // type thrown from inside an action (an InvalidArgumentError for --from after --to) does not, and is
  // printed here like any other failure.
  const reported = new WeakSet<object>();
  applyRecursively(program, (command) =>
    command.exitOverride((error) => {
      reported.add(error);
      throw error;
    }),
  );
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError && reported.has(error)) return error.exitCode;
    if (error instanceof CommandExit) return error.code;
    process.stderr.write(`error: ${describeError(error)}\n`);
    if (options.debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

/**
 * A reader that stops early (`sbm tax cgt --json | head`) closes the pipe, and the next write fails with
 * EPIPE on the stream, an 'error' event that would otherwise end the process with a stack trace. As a Unix
 * filter does, the command then stops quietly with the exit code it has so far: nobody is left to read it.
 */
const watched = new WeakSet<NodeJS.WriteStream>();

function endQuietlyWhenReaderLeaves(stream: NodeJS.WriteStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`error: standard output: ${describeError(error)}\n`);
    process.exit(1);
  });
}

function applyRecursively(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyRecursively(sub, apply);
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

/** A commander option parser for counts (`--concurrency`, `--keep-runs`, …): an integer of at least 1. */
export function positiveIntOption(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected an integer >= 1');
  return Number(value);
}

/**
 * `--rpc <url>`, given once per node: the nodes of one chain a collection shares its requests among. Each must
 * be a ws:// or wss:// URL.
 */
export function rpcUrlOption(value: string, previous: string[] = []): string[] {
  if (!/^wss?:\/\/\S+$/.test(value))
    throw new InvalidArgumentError(`expected a ws:// or wss:// URL, got "${value}"`);
  return [...previous, value];
}

/** A stream the process writes to: stdout or stderr. */
interface OutputStream {
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
  readonly writableLength: number;
}

/**
 * Resolves once everything written to `stream` so far has been handed to the operating system. On a pipe
 * Node writes asynchronously: what the pipe's buffer (64 KB) could not take yet is queued in the process,
 * and `process.exit` drops that queue. An empty write's callback runs after every earlier write's.
 */
export function written(stream: OutputStream): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve();
  // A reader that went away (EPIPE) also ends the wait: there is nobody left to write for.
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * How both command lines end: the exit code is set, standard output and error are let drain (a
 * megabyte of `sbm sql` piped into another program arrives whole), and only then does the process exit,
 * so that a handle left open by a library (a socket, a timer) cannot keep a finished command alive.
 */
export async function exitWhenWritten(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}

/** Each group's name (its first word on the command line) and how to load and build it. */
export type CommandGroups<Config> = Readonly<Record<string, (config: Config) => Promise<Command>>>;

/**
 * The command groups an entry file loads: only the group its first word names (`sbm-gateway orders fulfil`
 * loads the orders commands and what they use, not the server's code), and every group for `--help`,
 * `--version`, `help`, no command, or a word that names none (commander then lists them all, or says the
 * command is unknown, as before).
 *
 * Why: each group imports its own part of the product. Through tsx, `sbm-gateway orders fulfil`, which the
 * cron starts every minute, spent 5.3 s of CPU loading the whole gateway before it did anything; about 3 s
 * loading what it uses.
 */
export async function commandsAsked<Config>(
  argv: readonly string[],
  groups: CommandGroups<Config>,
  config: Config,
): Promise<Command[]> {
  const first = argv[2];
  const names = first !== undefined && Object.hasOwn(groups, first) ? [first] : Object.keys(groups);
  return Promise.all(names.map((name) => groups[name]!(config)));
}
